// Signed players playing many rounds quickly over REST: each claims the free chips, signs its
// auth statement once, then commits and plays 1-chip rounds of every game and many calls, each
// play signed (its Play: the commitment it was shown and the call) with a fresh random client seed. `newAccount` makes a signer
// (a viem account: `address`, `signMessage`, `signTypedData`), so each test package brings its
// own viem.
import { freshClientSeed, signedCall, signingDomain } from './play.mjs';

const BETS = ['straight', 'red', 'black', 'odd', 'even', 'low', 'high', 'dozen1', 'dozen2', 'dozen3', 'column1', 'column2', 'column3'];

async function api(baseUrl, path, body) {
  const response = await fetch(`${baseUrl}${path}`, body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw Object.assign(new Error(`${path}: ${response.status} ${json.code}`), { code: json.code });
  return json;
}

/** Limbo targets from even money to long odds (1-chip wagers fit up to 501.00). */
const LIMBO_TARGETS = ['1.01', '1.25', '1.5', '2.00', '3', '5.55', '10', '25', '100', '500'];

/** The call of round `i`: every game, both dice directions at many targets, all 13 bets, limbo targets. */
export function callFor(i) {
  const game = ['flip', 'dice', 'roulette', 'limbo'][i % 4];
  if (game === 'limbo') return { game, body: { target: LIMBO_TARGETS[Math.floor(i / 4) % LIMBO_TARGETS.length] } };
  if (game === 'flip') return { game, body: { call: i % 2 ? 'heads' : 'tails' } };
  if (game === 'dice') return { game, body: { target: 2 + ((i * 7) % 97), direction: i % 2 ? 'over' : 'under' } };
  const bet = BETS[i % BETS.length];
  return { game, body: { bet, ...(bet === 'straight' ? { number: i % 37 } : {}) } };
}

/** One player's `rounds` rounds; stops early when out of chips. Returns the receipts. */
async function player(baseUrl, rounds, offset, newAccount, domain, call = callFor) {
  const account = newAccount();
  await api(baseUrl, '/api/arcade/free', { address: account.address });
  const { statement } = await api(baseUrl, `/api/arcade/auth-statement/${account.address}`);
  const signature = await account.signMessage({ message: statement });
  const receipts = [];
  for (let i = 0; i < rounds; i++) {
    const { game, body } = call(offset + i);
    try {
      const commit = await api(baseUrl, '/api/arcade/commit', { address: account.address, signature });
      const call = { round_id: commit.round_id, client_seed: freshClientSeed(), wager: 1, ...body };
      receipts.push(await api(baseUrl, `/api/arcade/${game}`, await signedCall(account, { commit, domain, game, body: call })));
    } catch (error) {
      if (error.code === 'insufficient_chips') break;
      throw error;
    }
  }
  return receipts;
}

/** `players` players in parallel, `rounds` each: every receipt the game calls answered. */
export async function playMany(baseUrl, { players, rounds, newAccount, call }) {
  const domain = await signingDomain(baseUrl);
  const all = await Promise.all(Array.from({ length: players }, (_, p) => player(baseUrl, rounds, p * rounds, newAccount, domain, call)));
  return all.flat().sort((a, b) => a.bet_id - b.bet_id);
}

/** Rounds, chips wagered and paid out per game, as the players saw them. */
export function totals(receipts) {
  const games = {};
  for (const r of receipts) {
    const t = (games[r.game] ??= { rounds: 0, wagered: 0, paid_out: 0 });
    t.rounds += 1;
    t.wagered += r.wager;
    t.paid_out += r.payout;
  }
  return games;
}
