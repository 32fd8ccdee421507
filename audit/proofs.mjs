// The checks' one contact with the wasm proof functions: arcade-proofs' checkSigned (which
// expects the member lists of its `signedTypes`), expectedReceiptMessages, expectedCommitMessage
// and expectedSeedBatchMessage, arcade-wasm's verifyInclusion and merkleRoot. Each check answers null when it holds, or why it does not.
// The signer and domain always come from the trust (the pinned signer, or the manifest's),
// never from the object checked.

const parse = (value) => (typeof value === 'string' ? JSON.parse(value) : value);
const reason = (report) => (report.problems?.length ? report.problems.join('; ') : JSON.stringify(report));
const failed = (error) => `${error.code ? `${error.code}: ` : ''}${error.message}`;

/** A signed object `{signature, typed_data}` against the expected signer, domain and message. */
export function checkSignature(proofs, signed, { trust, primaryType, message }) {
  if (!signed) return `${primaryType} signature missing`;
  try {
    const expected = { signer: trust.signer, domain: trust.domain, primaryType, message };
    const report = parse(proofs.checkSigned(JSON.stringify(signed), JSON.stringify(expected)));
    return report.valid ? null : `${primaryType} signature: ${reason(report)}`;
  } catch (error) {
    return `${primaryType} signature: ${failed(error)}`;
  }
}

/**
 * The Commitment and Receipt messages a receipt's fields call for (docs/proofs.md). `marks`
 * (the manifest's signed marks) say which Receipt type a bet was signed with.
 */
export function expectedMessages(proofs, receipt, marks = null) {
  const args = [JSON.stringify(receipt)];
  if (marks) args.push(JSON.stringify(marks));
  return parse(proofs.expectedReceiptMessages(...args));
}

/** The Commitment message a commit answer (`POST /api/arcade/commit`) calls for, or `{unsigned: true}`. */
export function expectedCommitMessage(proofs, answer) {
  return parse(proofs.expectedCommitMessage(JSON.stringify(answer)));
}

/** A commitment is leaf `index` of a batch of `size` under `root`, by its audit path. */
export function checkInclusion(wasm, { commitment, index, size, audit_path, root }) {
  try {
    const included = wasm.verifyInclusion({ commitment, index, size, audit_path, merkle_root: root });
    return included ? null : `seed commitment not in batch (root ${String(root).slice(0, 12)}…) at index ${index}`;
  } catch (error) {
    return `inclusion proof: ${failed(error)}`;
  }
}

/** The Merkle root over a full batch's commitments (hex), or null if it cannot be computed. */
export function merkleRoot(wasm, commitments) {
  try {
    return wasm.merkleRoot(commitments);
  } catch {
    return null;
  }
}

/** The SeedBatch message a published batch calls for. */
export function expectedBatchMessage(proofs, batch) {
  const { rounds, ...listed } = batch;
  return parse(proofs.expectedSeedBatchMessage(JSON.stringify(listed)));
}
