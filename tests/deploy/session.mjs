// A player's whole session across a deployment's instances, with the npm arcade-client (built
// in clients/npm): chips bought over x402 through the first URL, a round of every game played
// and verified (re-derived by the wasm core, every signature and the seed batch checked) through
// the second, a cashout through the first. Prints each step; exits non-zero on any failure.
//   PAYER_KEY=0x… node tests/deploy/session.mjs <url-a> <url-b>
import { createRequire } from 'node:module';

const client = new URL('../../clients/npm/', import.meta.url);
const require = createRequire(new URL('package.json', client));
const { Arcade } = await import(new URL('dist/index.js', client));
const { privateKeyToAccount } = await import(require.resolve('viem/accounts'));

const [a, b] = process.argv.slice(2);
const account = privateKeyToAccount(process.env.PAYER_KEY);
const first = await Arcade.connect(a, { account, maxSpend: '0.10' });
const second = await Arcade.connect(b, { account });
console.log(`player ${account.address}; signer ${first.signer} pinned at both instances`);
if (first.signer !== second.signer) throw new Error('the instances sign as different houses');

const bought = await first.buyChips('small');
console.log(`bought ${bought.chips_credited} chips over x402 at ${a}: tx ${bought.tx_hash}`);
const rounds = [
  ['coinflip', () => second.flip({ wager: 10, call: 'heads' })],
  ['dice', () => second.dice({ wager: 10, target: 50, direction: 'under' })],
  ['roulette', () => second.roulette({ wager: 10, bet: 'red' })],
  ['limbo', () => second.limbo({ wager: 10, target: '2.00' })],
];
for (const [game, play] of rounds) {
  const r = await play();
  if (!r.verified) throw new Error(`${game}: not verified: ${r.verdict.reason}`);
  console.log(`${game} at ${b}: bet ${r.bet_id} ${r.won ? 'won' : 'lost'} ${r.payout}; ${r.verdict.verdict} (re-derived, Commitment, Receipt, batch path and Play checked)`);
}
const cashout = await first.cashout(500);
console.log(`cashout of 500 chips at ${a}: ${cashout.status}, tx ${cashout.tx_hash}`);
if (cashout.status !== 'confirmed') throw new Error(`cashout ${JSON.stringify(cashout)}`);
console.log(`balance: ${(await second.balance()).chips} chips`);
