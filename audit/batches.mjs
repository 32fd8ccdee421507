// The seed batches, judged: each root signed by the house's signer, every used index listed
// exactly once, every revealed seed hashing to its commitment under the root; and the rows they
// list, kept (without their audit paths) so the feed's receipts can be compared with them:
// every receipt must be the round its batch lists (bet id, round id, commitment, seed), every
// settled bet a batch lists must be in the feed, and a round takes one seed: one row across
// every batch read.
import { checkInclusion, checkSignature, expectedBatchMessage, merkleRoot } from './proofs.mjs';
import { isUnsigned } from './verdicts.mjs';

const short = (value) => (typeof value === 'string' && value.length > 16 ? `${value.slice(0, 12)}…` : String(value));

/** Why a batch's signed root does not hold (null when it does). */
export function checkRootSignature({ proofs, trust }, batch) {
  let message;
  try {
    message = expectedBatchMessage(proofs, batch);
  } catch (error) {
    return `batch cannot be turned into its signed message: ${error.message}`;
  }
  return checkSignature(proofs, { signature: batch.signature, typed_data: batch.typed_data }, { trust, primaryType: 'SeedBatch', message });
}

/**
 * The published batches (`GET /api/arcade/seed-batches`) by id, each with its root signature
 * checked once (when the signature module is there): `Map(batch_id → {batch_id, size, used,
 * merkle_root, problem})`.
 */
export function signedBatches(context, list) {
  const out = new Map();
  for (const batch of Array.isArray(list) ? list : []) {
    const { batch_id, size, used, merkle_root } = batch;
    const problem = context.proofs ? checkRootSignature(context, batch) : null;
    out.set(batch_id, { batch_id, size, used, merkle_root, problem });
  }
  return out;
}

/** Why one listed index of a batch does not hold. */
function checkIndex({ wasm }, batch, round) {
  const found = [];
  if (round.state !== 'open') {
    let derived = null;
    try {
      derived = wasm.commitment(round.server_seed ?? '');
    } catch (error) {
      found.push(`revealed seed is not a seed (${error.message})`);
    }
    if (derived !== null && derived !== round.commitment) found.push(`revealed seed hashes to ${derived}, not its commitment`);
  }
  if (round.state === 'settled' && !Number.isSafeInteger(round.bet_id)) found.push('settled without a bet id');
  const why = checkInclusion(wasm, {
    commitment: round.commitment, index: round.index, size: batch.size,
    audit_path: round.audit_path, root: batch.merkle_root,
  });
  if (why) found.push(why);
  return found;
}

/** Indices 0..used-1 each listed exactly once. */
function checkIndices(batch) {
  const seen = new Map();
  for (const round of batch.rounds) seen.set(round.index, (seen.get(round.index) ?? 0) + 1);
  const found = [];
  for (let i = 0; i < batch.used; i++) {
    const count = seen.get(i) ?? 0;
    if (count !== 1) found.push(`index ${i} listed ${count} times`);
  }
  for (const index of seen.keys()) if (!(index >= 0 && index < batch.used)) found.push(`index ${index} listed beyond used ${batch.used}`);
  return found;
}

/** The rows of every batch read so far: by batch (an array by index), by settled bet id, and
 * the place of every revealed round by its round id. */
export function newRows() {
  return { byBatch: new Map(), byBet: new Map(), byRound: new Map() };
}

/**
 * A revealed row names its round, and a round is in one row of one batch: a round id listed at
 * two places took two seeds (a house that re-seeded a round and listed the real row as well).
 * Failures `{check, why, bet_id}`.
 */
function checkRoundOnce(rows, batch, round) {
  if (round.state === 'open') return [];
  if (typeof round.round_id !== 'string' || round.round_id === '') {
    return [{ check: 'batch_listing', bet_id: round.bet_id ?? null, why: `index ${round.index} is ${round.state}, yet names no round` }];
  }
  const here = { batch_id: batch.batch_id, index: round.index, bet_id: round.bet_id ?? null };
  const other = rows.byRound.get(round.round_id);
  if (!other) {
    rows.byRound.set(round.round_id, here);
    return [];
  }
  if (other.batch_id === here.batch_id && other.index === here.index) return [];
  return [{
    check: 'batch_row', bet_id: here.bet_id ?? other.bet_id,
    why: `round ${round.round_id} is listed at batch ${other.batch_id} index ${other.index} and at batch ${here.batch_id} index ${here.index}: a round takes one seed`,
  }];
}

/**
 * Judges one batch (`GET /api/arcade/seed-batches/{id}`, `signed` its entry of
 * `signedBatches`) and keeps its rows in `rows` (a batch read again replaces its rows, keeping
 * which were seen in the feed). Returns `{summary, failures}`, each failure
 * `{check, batch_id, index, bet_id, why}`.
 */
export function judgeBatch(context, signed, batch, rows) {
  const failures = [];
  const fail = (check, why, round = {}) => failures.push({ check, bet_id: round.bet_id ?? null, batch_id: batch.batch_id, index: round.index ?? null, why });
  if (!signed) fail('batch', 'not in the list of published batches');
  else if (signed.problem) fail('batch_signature', signed.problem);
  else if (signed.merkle_root !== batch.merkle_root || signed.size !== batch.size) {
    fail('batch_listing', `listed with root ${short(batch.merkle_root)} and size ${batch.size}, published with root ${short(signed.merkle_root)} and size ${signed.size}`);
  }
  if (batch.paging) fail('batch_listing', `its pages: ${batch.paging}`);
  for (const why of checkIndices(batch)) fail('batch_listing', why);
  const counts = { settled: 0, expired: 0, open: 0 };
  const before = rows.byBatch.get(batch.batch_id) ?? [];
  const kept = [];
  for (const round of batch.rounds) {
    counts[round.state] = (counts[round.state] ?? 0) + 1;
    for (const why of checkIndex(context, batch, round)) fail('batch_listing', why, round);
    for (const f of checkRoundOnce(rows, batch, round)) fail(f.check, f.why, { ...round, bet_id: f.bet_id });
    const row = rowRecord(batch, round, before[round.index]);
    kept[round.index] = row;
    if (round.state !== 'settled') continue;
    const other = rows.byBet.get(row.bet_id);
    if (other && !(other.batch_id === row.batch_id && other.index === row.index)) {
      fail('batch_listing', `bet ${row.bet_id} is also listed at batch ${other.batch_id} index ${other.index}`, round);
    }
    rows.byBet.set(row.bet_id, row);
  }
  rows.byBatch.set(batch.batch_id, kept);
  if (batch.used === batch.size && batch.rounds.length === batch.size) {
    const root = merkleRoot(context.wasm, batch.rounds.map((r) => r.commitment));
    if (root !== batch.merkle_root) fail('batch_listing', `the full batch's commitments make root ${root}, not the signed one`);
  }
  const summary = { batch_id: batch.batch_id, size: batch.size, used: batch.used, ...counts, ok: failures.length === 0 };
  return { summary, failures };
}

/** A listed index as kept: `seen` stays true when the same bet was seen in the feed before. */
function rowRecord(batch, round, before) {
  return {
    batch_id: batch.batch_id, index: round.index, state: round.state, bet_id: round.bet_id ?? null,
    round_id: round.round_id ?? null, commitment: round.commitment, server_seed: round.server_seed ?? null,
    seen: before?.seen === true && before.bet_id === round.bet_id,
  };
}

/**
 * Judges one row of a batch (`GET /api/arcade/seed-batches/{id}/rows/{index}`: `{batch, row}`)
 * against the receipt that claims it: its revealed seed hashes to its commitment, its path
 * leads to the batch's root, and it is that receipt's round (bet id, round id, commitment,
 * seed). Failures `{check, why}`.
 */
export function judgeRow(context, answer, receipt) {
  const { batch, row } = answer ?? {};
  if (!batch || !row) return [{ check: 'batch_row', why: 'the seed batch row answer has no batch or no row' }];
  const failures = checkIndex(context, batch, row).map((why) => ({ check: 'batch_listing', why: `index ${row.index}: ${why}` }));
  const rows = newRows();
  const record = rowRecord(batch, row, null);
  rows.byBatch.set(batch.batch_id, { [row.index]: record });
  if (record.state === 'settled') rows.byBet.set(record.bet_id, record);
  return [...failures, ...rowFailures(rows, receipt)];
}

/** The row a receipt claims (its proofs' batch and index), or, unsigned, the row of its bet. */
export function rowOf(rows, receipt) {
  const claim = receipt.proofs?.batch;
  if (claim) return rows.byBatch.get(claim.batch_id)?.[claim.index] ?? null;
  return rows.byBet.get(receipt.bet_id) ?? null;
}

/**
 * Why a feed receipt is not the round its batch lists: its bet id, round id, commitment and
 * seed against the row (each `{check: 'batch_row', why}`). The row is marked seen when it is
 * this bet's. A receipt naming a batch that was not read is left to the batch checks.
 */
export function rowFailures(rows, receipt) {
  const claim = receipt.proofs?.batch;
  const row = rowOf(rows, receipt);
  const fail = (why) => [{ check: 'batch_row', why }];
  if (!row) {
    if (claim && rows.byBatch.has(claim.batch_id)) return fail(`batch ${claim.batch_id} lists no index ${claim.index}`);
    const listed = rows.byBet.get(receipt.bet_id);
    return listed ? fail(`batch ${listed.batch_id} lists bet ${receipt.bet_id} at index ${listed.index}, the receipt names another`) : [];
  }
  const where = `batch ${row.batch_id} index ${row.index}`;
  if (row.state !== 'settled') return fail(`${where} is ${row.state}, yet the feed settles it as bet ${receipt.bet_id}`);
  if (row.bet_id !== receipt.bet_id) return fail(`${where} is bet ${row.bet_id}, not bet ${receipt.bet_id}`);
  row.seen = true;
  const found = [];
  // A seed from a signed batch means the round was signed: whatever mark the manifest states,
  // its receipt without proofs hides them.
  if (isUnsigned(receipt.proofs)) found.push({ check: 'proofs', why: `${where} settles bet ${receipt.bet_id} from a signed seed batch, yet its receipt carries no proofs` });
  for (const field of ['round_id', 'commitment', 'server_seed']) {
    if (row[field] !== receipt[field]) found.push({ check: 'batch_row', why: `${where} lists ${field} ${short(row[field])}, the feed ${short(receipt[field])}` });
  }
  return found;
}

/** Settled bets in (after, mark] that a batch lists and the feed never showed. */
export function missingFromFeed(rows, { after, mark }) {
  const missing = [];
  for (const row of rows.byBet.values()) {
    if (row.bet_id > after && row.bet_id <= mark && !row.seen) {
      missing.push({ check: 'feed_missing', bet_id: row.bet_id, batch_id: row.batch_id, index: row.index, why: `settled in batch ${row.batch_id} at index ${row.index}, missing from the feed` });
    }
  }
  return missing.sort((a, b) => a.bet_id - b.bet_id);
}
