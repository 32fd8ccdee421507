#!/usr/bin/env node
// One round of every game against an arcade (default: the dev stack of server/devnet/run.sh),
// each verified before it returns, and every proof that was checked printed.
//   node examples/play-every-game.mjs [base-url]
// The payer key comes from PAYER_KEY, else anvil's public test account 1 (the dev chain's
// demo payer). Chips are bought (micro tier, capped at $0.01) only when the balance is short.
import { Arcade } from 'arcade-client';
import { privateKeyToAccount } from 'viem/accounts';

const ANVIL_ACCOUNT_1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const url = process.argv[2] ?? 'http://127.0.0.1:8402';
const account = privateKeyToAccount(process.env.PAYER_KEY ?? ANVIL_ACCOUNT_1);

const arcade = await Arcade.connect(url, { account, maxSpend: '0.01' });
console.log(`${url}: signer ${arcade.signer} pinned; player ${arcade.address}`);
if ((await arcade.balance()).chips < 4) console.log(`bought ${(await arcade.buyChips('micro')).chips_credited} chips over x402`);

const short = (hex) => `${hex.slice(0, 12)}…`;

/** The proofs one verified round carried, as lines. */
function proofsOf(r) {
  const { receipt: x } = r;
  const { batch, commitment, receipt, play } = x.proofs;
  return [
    `commitment  sha256(server_seed ${short(x.server_seed)}) = ${short(x.commitment)}`,
    `outcome     ${JSON.stringify(x.result)} and payout ${x.payout} re-derived from client seed ${x.client_seed}, nonce ${x.nonce}`,
    `Commitment  EIP-712, signed by ${arcade.signer}: ${short(commitment.signature)}`,
    `Receipt     EIP-712, signed by ${arcade.signer}: ${short(receipt.signature)}`,
    `seed batch  ${batch.batch_id}, index ${batch.index} of ${batch.size}, Merkle path of ${batch.audit_path.length} hashes to its signed root`,
    `Play        EIP-712, signed by the player ${x.address}: ${short(play.signature)}`,
  ];
}

const rounds = [
  ['coinflip', () => arcade.flip({ wager: 1, call: 'heads' })],
  ['dice', () => arcade.dice({ wager: 1, target: 50, direction: 'under' })],
  ['roulette', () => arcade.roulette({ wager: 1, bet: 'red' })],
  ['limbo', () => arcade.limbo({ wager: 1, target: '2.00' })],
];
for (const [game, play] of rounds) {
  const r = await play();
  console.log(`\n${game}: bet ${r.bet_id} ${r.won ? 'won' : 'lost'}, payout ${r.payout}; verified ${r.verified} (${r.verdict.verdict}) in ${r.timings.verify_ms.toFixed(1)} ms of ${r.timings.total_ms.toFixed(1)} ms`);
  for (const line of proofsOf(r)) console.log(`  ${line}`);
}
console.log(`\nbalance: ${(await arcade.balance()).chips} chips`);
