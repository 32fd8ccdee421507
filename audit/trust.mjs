// Whom to believe, read once from the manifest: the house's signer (the one pinned by the
// reader when there is one, never only the manifest's word), its EIP-712 domain, and the
// signed marks, the first bet ids signed at all and signed with `house_agent` in the Receipt.
// A manifest naming another signer than the pinned one, or marks whose signature does not
// hold, is a problem every verdict that relies on the manifest fails with.
import { checkSignature } from './proofs.mjs';

/** Without published marks every bet must carry its proofs: strict by default. */
export const STRICT_MARKS = Object.freeze({ signed_from: 1, house_agent_signed_from: null, published: false });

const isBetId = (value) => Number.isSafeInteger(value) && value >= 1;
export const isAddress = (value) => typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value);
export const sameAddress = (a, b) => isAddress(a) && isAddress(b) && a.toLowerCase() === b.toLowerCase();

/** Why the manifest's `signed_marks` do not hold (null when they do). */
export function checkMarks(proofs, trust, marks) {
  if (typeof marks !== 'object' || marks === null) return 'signed_marks is not an object';
  if (!isBetId(marks.signed_from) || !isBetId(marks.house_agent_signed_from)) {
    return 'signed_marks: signed_from and house_agent_signed_from must be bet ids (positive integers)';
  }
  const message = { signed_from: marks.signed_from, house_agent_signed_from: marks.house_agent_signed_from };
  // The member list expected is the signature module's (`signedTypes().SignedMarks`).
  return checkSignature(proofs, marks, { trust, primaryType: 'SignedMarks', message });
}

/**
 * The trust a manifest gives, under the reader's pins: `pin.signer` (an address: the manifest
 * must name it) and `pin.marks` (`{signed_from, house_agent_signed_from}` seen before: they
 * must not move). `proofs` is the signature module, or null where it is not available (then
 * the marks are read but not checked; nothing can be proven without the module anyway).
 * Returns `{signer, published_signer, pinned, domain, marks, problems: [{check, why}]}`.
 */
export function readTrust(proofs, manifest, pin = {}) {
  const published = manifest?.signer ?? null;
  const pinned = pin.signer ?? null;
  const trust = {
    signer: pinned ?? published,
    published_signer: published,
    pinned: pinned !== null,
    domain: manifest?.signing_domain ?? null,
    marks: STRICT_MARKS,
    problems: [],
  };
  const problem = (check, why) => trust.problems.push({ check, why });
  if (pinned !== null && !sameAddress(published, pinned)) {
    problem('signer', `the manifest names the signer ${published ?? '(none)'}, not the pinned ${pinned}`);
  }
  if (!isAddress(trust.signer)) problem('signer', 'no signer to check against: the manifest publishes none and none is pinned');
  const marks = manifest?.signed_marks;
  if (marks !== undefined && marks !== null) {
    const why = proofs && isAddress(trust.signer) ? checkMarks(proofs, trust, marks) : null;
    if (why) problem('marks', why);
    else trust.marks = { signed_from: marks.signed_from, house_agent_signed_from: marks.house_agent_signed_from, published: true, signed: marks };
  }
  const moved = pin.marks && trust.marks.published
    && (pin.marks.signed_from !== trust.marks.signed_from || pin.marks.house_agent_signed_from !== trust.marks.house_agent_signed_from);
  if (moved) problem('marks', `the signed marks moved: signed_from ${pin.marks.signed_from} → ${trust.marks.signed_from}, house_agent_signed_from ${pin.marks.house_agent_signed_from} → ${trust.marks.house_agent_signed_from}`);
  return trust;
}
