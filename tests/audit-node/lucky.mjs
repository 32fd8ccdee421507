// A player who knows the house's seeds (the test sets `seeds.secret`, so the seed of every
// batch index can be computed: docs/proofs.md, "Pre-committed seeds"): after each commit it
// picks its call, or grinds its client seed, to get the outcome it wants, and signs its plays.
// Every proof holds (the house's seeds, signatures and batches are real, the player's Play
// signatures too); only the statistics show it.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { freshClientSeed, signedCall, signingDomain } from './play.mjs';

const root = new URL('../..', import.meta.url).pathname;
const wasm = createRequire(import.meta.url)(process.env.ARCADE_WASM ?? join(root, 'wasm', 'pkg-node', 'arcade.js'));

/** A seeds secret for the server (`ARCADE__SEEDS__SECRET`): random, so no one else knows it. */
export const newSeedsSecret = () => randomBytes(32).toString('hex');

/** The seed of index `index` of `batch` (as `/seed-batches` lists it), from the seeds secret. */
export function seedOf(secret, batch, index) {
  const name = batch.salt === null ? `arcade seed batch ${batch.batch_id}` : `arcade seed batch ${batch.batch_id} salt ${batch.salt}`;
  const key = createHmac('sha256', secret).update(name).digest();
  return createHmac('sha256', key).update(String(index)).digest('hex');
}

async function api(baseUrl, path, body) {
  const response = await fetch(`${baseUrl}${path}`, body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Plays as a player who knows the seeds: `coinflips` coinflips, each called as it will land,
 * and `dice` dice rounds whose rolls all fall below 5.00, half of them bet under 50 and half
 * over (so dice returns stay near the expectation while the rolls' histogram is far from fair).
 * `account`: a viem account. Returns the receipts.
 */
export async function playKnowingTheSeeds(baseUrl, { secret, account, coinflips, dice }) {
  await api(baseUrl, '/api/arcade/free', { address: account.address });
  const { statement } = await api(baseUrl, `/api/arcade/auth-statement/${account.address}`);
  const signature = await account.signMessage({ message: statement });
  const domain = await signingDomain(baseUrl);
  const play = async (game, commit, body) => api(baseUrl, `/api/arcade/${game}`, await signedCall(account, { commit, domain, game, body }));
  const batches = new Map();
  const seedFor = async (commit) => {
    const { batch_id: id, index } = commit.proofs.batch;
    if (!batches.has(id)) for (const b of await api(baseUrl, '/api/arcade/seed-batches')) batches.set(b.batch_id, b);
    const seed = seedOf(secret, batches.get(id), index);
    if (createHash('sha256').update(seed).digest('hex') !== commit.commitment) throw new Error('the seed derivation is not the server\'s');
    return seed;
  };
  const receipts = [];
  for (let i = 0; i < coinflips + dice; i++) {
    const commit = await api(baseUrl, '/api/arcade/commit', { address: account.address, signature });
    const seed = await seedFor(commit);
    if (i < coinflips) {
      const clientSeed = freshClientSeed();
      const landed = wasm.deriveCoinflip({ server_seed: seed, client_seed: clientSeed, wager: 1, params: { call: 'heads' } }).result.outcome;
      receipts.push(await play('flip', commit, { round_id: commit.round_id, client_seed: clientSeed, wager: 1, call: landed }));
      continue;
    }
    const params = { target: 50, direction: i % 2 ? 'under' : 'over' };
    // Ground from a fresh random seed: the grinding needs many tries, never a seed used before.
    const base = freshClientSeed();
    let clientSeed;
    for (let k = 0; ; k++) {
      clientSeed = `${base}-${k}`;
      if (wasm.deriveDice({ server_seed: seed, client_seed: clientSeed, wager: 1, params }).result.roll_hundredths < 500) break;
    }
    receipts.push(await play('dice', commit, { round_id: commit.round_id, client_seed: clientSeed, wager: 1, ...params }));
  }
  return receipts;
}
