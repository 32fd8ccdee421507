// One receipt of the feed, judged: re-derived by the fairness core (never the server's numbers),
// its commitment and receipt signatures checked, and its seed shown to be in its signed batch.
import { checkInclusion, checkSignature, expectedMessages } from './proofs.mjs';

const describe = (mismatches) =>
  mismatches.map((m) => `${m.field} claimed ${m.claimed}, derives ${m.derived}`).join('; ');

/** The round as the core re-derives it: `{round, why}` (round null when it cannot be derived). */
export function rederive(wasm, receipt) {
  let report;
  try {
    report = wasm.verify(receipt);
  } catch (error) {
    return { round: null, why: `does not re-derive (${error.code ?? 'error'}: ${error.message})` };
  }
  const { derived } = report;
  const round = {
    bet_id: receipt.bet_id,
    game: receipt.game,
    params: receipt.params,
    wager: receipt.wager,
    payout: derived.payout,
    house_agent: receipt.house_agent === true,
    roll_hundredths: derived.result.roll_hundredths,
    pocket: derived.result.pocket,
  };
  return { round, why: report.verified ? null : `re-derivation differs: ${describe(report.mismatches)}` };
}

/** True when a receipt predates signing: no batch, no signatures. */
export const isUnsigned = (proofs) =>
  !proofs || (proofs.batch === null && proofs.commitment === null && proofs.receipt === null);

/** Why a signed receipt's proofs do not hold (an empty list when they all do). */
export function checkProofs({ wasm, proofs, trust, batches }, receipt) {
  const found = [];
  const { batch, commitment, receipt: signed } = receipt.proofs;
  if (!batch) return ['signed, but names no seed batch'];
  let expected;
  try {
    expected = expectedMessages(proofs, receipt, trust.marks);
  } catch (error) {
    return [`receipt cannot be turned into signed messages: ${error.message}`];
  }
  for (const [primaryType, object, message] of [
    ['Commitment', commitment, expected.commitment],
    ['Receipt', signed, expected.receipt],
  ]) {
    const why = checkSignature(proofs, object, { trust, primaryType, message });
    if (why) found.push(why);
  }
  const published = batches.get(batch.batch_id);
  if (!published) return [...found, `seed batch ${batch.batch_id} is not published`];
  if (batch.size !== published.size) found.push(`batch size ${batch.size}, published ${published.size}`);
  const why = checkInclusion(wasm, {
    commitment: receipt.commitment, index: batch.index, size: published.size,
    audit_path: batch.audit_path, root: published.merkle_root,
  });
  if (why) found.push(why);
  return found;
}

/**
 * Judges one receipt: `{round, status, failures}` where status is `verified`, `unsigned`
 * (before signing began; re-derived but nothing signed) or `failed`.
 */
export function judgeReceipt(context, receipt) {
  const { round, why } = rederive(context.wasm, receipt);
  const failures = why ? [why] : [];
  const unsigned = isUnsigned(receipt.proofs);
  if (!unsigned) failures.push(...checkProofs(context, receipt));
  const status = failures.length > 0 ? 'failed' : unsigned ? 'unsigned' : 'verified';
  return { round, status, failures };
}
