// Two lying houses that pick a round's seed after seeing its client seed, and prove it with
// signatures they can make at will (docs/proofs.md, "What the player's signature binds"): the
// seed put into a seed batch signed afterwards (its created_at backdated), or onto an unused
// index of the batch in use (the house knows every seed of its batches). Commitment and Receipt
// are signed again, the index the player was really given is listed expired, and every house
// proof holds; only the player's Play, which names the commitment they were shown, does not.
// The liar needs the house's signing key and its seeds secret (the test sets both).
import { createHash, randomBytes } from 'node:crypto';

import { seedOf } from './lucky.mjs';
import { onPaths, proofs, reseeded, resignReceipt, signed, wasm } from './liar.mjs';

const sha256 = (...parts) => createHash('sha256').update(Buffer.concat(parts)).digest();
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

/** The largest power of two smaller than `n` (RFC 9162's split). */
const split = (n) => 2 ** Math.floor(Math.log2(n - 1));

function treeHash(leaves) {
  if (leaves.length === 1) return leaves[0];
  const k = split(leaves.length);
  return sha256(NODE, treeHash(leaves.slice(0, k)), treeHash(leaves.slice(k)));
}

function pathOf(leaves, m) {
  if (leaves.length === 1) return [];
  const k = split(leaves.length);
  return m < k
    ? [...pathOf(leaves.slice(0, k), m), treeHash(leaves.slice(k))]
    : [...pathOf(leaves.slice(k), m - k), treeHash(leaves.slice(0, k))];
}

/** RFC 9162 (§2.1.3.1) audit path of leaf `index` over seed commitments (hex), from the leaf up. */
export function auditPath(commitments, index) {
  const leaves = commitments.map((c) => sha256(LEAF, Buffer.from(c, 'hex')));
  return pathOf(leaves, index).map((h) => h.toString('hex'));
}

/** Whether the round `receipt` lost when settled from `seed` instead. */
const losesWith = (receipt, seed) => reseeded(receipt, seed).payout === 0;

/** A round that won, taken from `from` on, and a seed of `seeds()` that makes it lose. */
function victimAndSeed(receipts, from, seeds) {
  for (const receipt of receipts.slice(from).filter((r) => r.payout > 0)) {
    for (const seed of seeds(receipt)) if (losesWith(receipt, seed)) return { victim: receipt, seed };
  }
  throw new Error('no won round to turn into a loss');
}

async function getJson(upstream, path) {
  const answer = await fetch(`${upstream}${path}`);
  if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
  return answer.json();
}

const page = (p, f) => ({ ...p, receipts: p.receipts.map(f) });

/** The victim's real row listed as expired: its index was given, and never settled (says the house). */
const expire = (victim) => (row) => (row.bet_id === victim.bet_id ? { ...row, state: 'expired', bet_id: null } : row);

/** The rewrites every re-seeding liar makes: the victim swapped in the feed and by id. */
const swapIn = (victim, lied) => (r) => (r.bet_id === victim.bet_id ? lied : r);

/** Case 10: the seed put into a batch of one, signed now, its created_at the real batch's. */
async function intoAFreshBatch({ receipts, manifest, house, upstream }) {
  const { victim, seed } = victimAndSeed(receipts, Math.floor(receipts.length * 0.55), function* () {
    for (;;) yield randomBytes(32).toString('hex');
  });
  const original = (await getJson(upstream, '/api/arcade/seed-batches')).find((b) => b.batch_id === victim.proofs.batch.batch_id);
  const moved = reseeded(victim, seed);
  const batchId = randomBytes(6).readUIntBE(0, 6);
  const listed = { batch_id: batchId, size: 1, used: 1, merkle_root: wasm.merkleRoot([moved.commitment]), salt: null, created_at: original.created_at };
  const message = JSON.parse(proofs.expectedSeedBatchMessage(JSON.stringify(listed)));
  const fresh = { ...listed, ...(await signed(house, { ...original.typed_data, message })) };
  moved.proofs = { ...moved.proofs, batch: { batch_id: batchId, index: 0, size: 1, audit_path: [] } };
  const lied = await resignReceipt(house, moved, manifest.signed_marks);
  const row = { index: 0, round_id: victim.round_id, state: 'settled', commitment: moved.commitment, server_seed: seed, bet_id: victim.bet_id, house_agent: victim.house_agent, audit_path: [] };
  const swap = swapIn(victim, lied);
  return {
    name: '10', title: 'a seed picked after the client seed, put into a freshly signed batch (backdated), the real row expired', bet: victim.bet_id,
    lie: {
      serve: (url) => (url.pathname === `/api/arcade/seed-batches/${batchId}` ? { ...fresh, rounds: [row] } : undefined),
      rewrite: onPaths({
        feed: (p) => page(p, swap),
        verify: (r) => swap(r),
        batchList: (list) => [...list, fresh],
        batch: (b) => ({ ...b, rounds: b.rounds.map(expire(victim)) }),
      }),
    },
    victims: [victim.bet_id], lied,
  };
}

/** Case 11: the seed of the next unused index of the batch in use, the batch's `used` moved up. */
async function ontoAnUnusedIndex({ receipts, manifest, house, upstream, secret }) {
  const open = (await getJson(upstream, '/api/arcade/seed-batches')).find((b) => b.used < b.size);
  const seeds = Array.from({ length: open.size }, (_, i) => seedOf(secret, open, i));
  const commitments = seeds.map((s) => wasm.commitment(s));
  if (wasm.merkleRoot(commitments) !== open.merkle_root) throw new Error('the seeds secret is not the arcade\'s');
  const index = open.used;
  const { victim, seed } = victimAndSeed(receipts, Math.floor(receipts.length * 0.65), () => [seeds[index]]);
  const moved = reseeded(victim, seed);
  const path = auditPath(commitments, index);
  moved.proofs = { ...moved.proofs, batch: { batch_id: open.batch_id, index, size: open.size, audit_path: path } };
  const lied = await resignReceipt(house, moved, manifest.signed_marks);
  const row = { index, round_id: victim.round_id, state: 'settled', commitment: moved.commitment, server_seed: seed, bet_id: victim.bet_id, house_agent: victim.house_agent, audit_path: path };
  const swap = swapIn(victim, lied);
  const used = (b) => (b.batch_id === open.batch_id ? { ...b, used: index + 1 } : b);
  return {
    name: '11', title: 'a seed picked after the client seed, put onto an unused index of the open batch, the real row expired', bet: victim.bet_id,
    lie: {
      rewrite: onPaths({
        feed: (p) => page(p, swap),
        verify: (r) => swap(r),
        batchList: (list) => list.map(used),
        batch: (b) => used({ ...b, rounds: [...b.rounds.map(expire(victim)), ...(b.batch_id === open.batch_id ? [row] : [])] }),
      }),
    },
    victims: [victim.bet_id], lied,
  };
}

/**
 * Both cases over a played floor: `receipts` (in bet order), `manifest`, `house` (a viem account
 * with the house's key), `upstream` (the real arcade), `secret` (its seeds secret). Each case:
 * `{name, title, bet, lie, victims, lied (the victim's receipt as the liar serves it)}`.
 */
export async function reseedCases(floor) {
  return [await intoAFreshBatch(floor), await ontoAnUnusedIndex(floor)];
}
