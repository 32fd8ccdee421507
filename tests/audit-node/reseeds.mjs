// Lying houses that pick a round's seed after seeing its client seed, and prove it with
// signatures they can make at will (docs/proofs.md, "What the player's signature binds"): the
// seed put into a seed batch signed afterwards (its created_at backdated), or onto an unused
// index of the batch in use (the house knows every seed of its batches). Commitment and Receipt
// are signed again, the index the player was really given is listed expired, and every house
// proof holds; only the player's Play, which names the commitment they were shown, does not
// (and on the floor, the round listed in two batch rows).
// Unless the house moves the round to an address it holds and signs that Play itself: then only
// the round listed twice gives it away on the floor, and nothing at all once the round is
// renamed, but to the player, who knows their own address (docs/proofs.md, "Verdicts").
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

function* randomSeeds() {
  for (;;) yield randomBytes(32).toString('hex');
}

/**
 * `moved` (the victim settled from a seed picked afterwards) put into a batch of one the house
 * signs now, its created_at the real batch's: `{lie, lied}`, the victim's real row expired.
 */
async function inAFreshBatch({ manifest, house, upstream }, victim, moved) {
  const original = (await getJson(upstream, '/api/arcade/seed-batches')).find((b) => b.batch_id === victim.proofs.batch.batch_id);
  const batchId = randomBytes(6).readUIntBE(0, 6);
  const listed = { batch_id: batchId, size: 1, used: 1, merkle_root: wasm.merkleRoot([moved.commitment]), salt: null, created_at: original.created_at };
  const message = JSON.parse(proofs.expectedSeedBatchMessage(JSON.stringify(listed)));
  const fresh = { ...listed, ...(await signed(house, { ...original.typed_data, message })) };
  const lied = await resignReceipt(house, { ...moved, proofs: { ...moved.proofs, batch: { batch_id: batchId, index: 0, size: 1, audit_path: [] } } }, manifest.signed_marks);
  const row = { index: 0, round_id: lied.round_id, state: 'settled', commitment: lied.commitment, server_seed: lied.server_seed, bet_id: victim.bet_id, house_agent: victim.house_agent, audit_path: [] };
  const swap = swapIn(victim, lied);
  const lie = {
    serve: (url) => (url.pathname === `/api/arcade/seed-batches/${batchId}` ? { ...fresh, rounds: [row] } : undefined),
    rewrite: onPaths({
      feed: (p) => page(p, swap),
      verify: (r) => swap(r),
      batchList: (list) => [...list, fresh],
      batch: (b) => ({ ...b, rounds: b.rounds.map(expire(victim)) }),
    }),
  };
  return { lie, lied };
}

const fail = (...checks) => ({ verdict: 'fail', checks });
const pass = { verdict: 'pass', checks: [] };
/** A re-seeded round under its own round id: its Play, and on the floor its two batch rows. */
const twoRows = {
  audit: fail('play_signature', 'batch_row'), monitor: fail('play_signature', 'batch_row'),
  page: fail('play_signature'), element: fail('play_signature'),
};

/** Case 10: the seed put into a batch of one, signed now, its created_at the real batch's. */
async function intoAFreshBatch(floor) {
  const { victim, seed } = victimAndSeed(floor.receipts, Math.floor(floor.receipts.length * 0.55), randomSeeds);
  const { lie, lied } = await inAFreshBatch(floor, victim, reseeded(victim, seed));
  return {
    name: '10', title: 'a seed picked after the client seed, put into a freshly signed batch (backdated), the real row expired', bet: victim.bet_id,
    lie, victims: [victim.bet_id], lied,
    expect: twoRows,
    only: ['play_signature', 'batch_row'],
  };
}

/**
 * Cases 13 and 13a: as case 10, the round then moved to `puppet`, an address the house holds
 * (not one of its agents' wallets: `house_agent` stays false), whose key signs the round's Play
 * for the new commitment. Listed under its own round id, the round is in two batch rows; renamed
 * (a fresh round id, the real row left as it was listed), nothing on the floor shows it.
 */
async function toAnAddressOfItsOwn(floor, { renamed }) {
  const { victim, seed } = victimAndSeed(floor.receipts, Math.floor(floor.receipts.length * (renamed ? 0.85 : 0.75)), randomSeeds);
  const roundId = renamed ? `r_${randomBytes(16).toString('hex')}` : victim.round_id;
  const moved = { ...reseeded(victim, seed), address: floor.puppet.address, round_id: roundId };
  const message = JSON.parse(proofs.expectedReceiptMessages(JSON.stringify(moved))).play;
  moved.proofs = { ...moved.proofs, play: await signed(floor.puppet, { ...victim.proofs.play.typed_data, message }) };
  const { lie, lied } = await inAFreshBatch(floor, victim, moved);
  const byId = fail('player');
  return {
    name: renamed ? '13a' : '13',
    title: renamed
      ? 'as 13, and the round renamed (a fresh round id): the floor shows nothing to tie it to the real row'
      : 'the round moved to a house-held address with a Play signed by that key (re-seeded into a fresh batch, the real row expired)',
    bet: victim.bet_id, player: victim.address, lie, victims: renamed ? [] : [victim.bet_id], lied,
    expect: renamed
      ? { audit: pass, monitor: pass, page: byId, element: byId }
      : { audit: fail('batch_row'), monitor: fail('batch_row'), page: byId, element: byId },
    only: renamed ? undefined : ['batch_row'],
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
    expect: twoRows,
    only: ['play_signature', 'batch_row'],
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
 * The cases over a played floor: `receipts` (in bet order), `manifest`, `house` (a viem account
 * with the house's key), `puppet` (another key the house holds), `upstream` (the real arcade),
 * `secret` (its seeds secret). Each case: `{name, title, bet, lie, victims, lied (the victim's
 * receipt as the liar serves it), expect, only, player?}`.
 */
export async function reseedCases(floor) {
  return [
    await intoAFreshBatch(floor), await ontoAnUnusedIndex(floor),
    await toAnAddressOfItsOwn(floor, { renamed: false }), await toAnAddressOfItsOwn(floor, { renamed: true }),
  ];
}
