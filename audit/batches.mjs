// The seed batches, judged: each root signed by the house, every used index accounted for
// exactly once, every revealed seed hashing to its commitment under the root, and every
// settled round of a batch present in the feed as the same round.
import { checkInclusion, checkSignature, expectedBatchMessage, merkleRoot } from './proofs.mjs';

/** Why a batch's signed root does not hold (null when it does). */
function checkRootSignature({ proofs, trust }, batch) {
  let message;
  try {
    message = expectedBatchMessage(proofs, batch);
  } catch (error) {
    return `batch cannot be turned into its signed message: ${error.message}`;
  }
  return checkSignature(proofs, { signature: batch.signature, typed_data: batch.typed_data }, { trust, primaryType: 'SeedBatch', message });
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
  if (round.state === 'settled' && round.bet_id == null) found.push('settled without a bet id');
  const why = checkInclusion(wasm, {
    commitment: round.commitment, index: round.index, size: batch.size,
    audit_path: round.audit_path, root: batch.merkle_root,
  });
  if (why) found.push(why);
  return found;
}

/** Indices 0..used-1 each listed exactly once, in order. */
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

/**
 * Judges every batch against the feed. `feed` is `{byBet: Map(bet_id → receipt), after, last}`:
 * settled bets in (after, last] must be in the feed; later ones settled while the audit ran.
 * Returns `{batches: [{batch_id, size, used, settled, expired, open, ok}], failures: [...]}`.
 */
export function judgeBatches(context, batches, feed) {
  const failures = [];
  const summaries = [];
  for (const batch of batches) {
    const fail = (why, round = {}) => failures.push({ bet_id: round.bet_id ?? null, batch_id: batch.batch_id, index: round.index ?? null, why });
    const before = failures.length;
    const rootWhy = checkRootSignature(context, batch);
    if (rootWhy) fail(rootWhy);
    for (const why of checkIndices(batch)) fail(why);
    const counts = { settled: 0, expired: 0, open: 0 };
    for (const round of batch.rounds) {
      counts[round.state] = (counts[round.state] ?? 0) + 1;
      for (const why of checkIndex(context, batch, round)) fail(why, round);
      const inRange = round.state === 'settled' && round.bet_id > feed.after && round.bet_id <= feed.last;
      if (inRange && !feed.byBet.has(round.bet_id)) fail('settled in the batch but missing from the feed', round);
    }
    if (batch.used === batch.size && batch.rounds.length === batch.size) {
      const root = merkleRoot(context.wasm, batch.rounds.map((r) => r.commitment));
      if (root !== batch.merkle_root) fail(`the full batch's commitments make root ${root}, not the signed one`);
    }
    summaries.push({ batch_id: batch.batch_id, size: batch.size, used: batch.used, ...counts, ok: failures.length === before });
  }
  return { batches: summaries, failures };
}

/** A signed feed receipt must be the round its batch lists at its index. */
export function checkAgainstBatch(batchesById, receipt) {
  const claim = receipt.proofs?.batch;
  if (!claim) return null;
  const listed = batchesById.get(claim.batch_id)?.rounds?.find((r) => r.index === claim.index);
  if (!listed) return `batch ${claim.batch_id} lists no index ${claim.index}`;
  if (listed.bet_id !== receipt.bet_id) return `batch ${claim.batch_id} index ${claim.index} is bet ${listed.bet_id}`;
  if (listed.round_id !== receipt.round_id || listed.commitment !== receipt.commitment) {
    return `batch ${claim.batch_id} index ${claim.index} lists another round or commitment`;
  }
  if (listed.server_seed !== receipt.server_seed) return `batch ${claim.batch_id} index ${claim.index} reveals another seed`;
  return null;
}
