// One round's verdict, the same for every verifier: the audit command, the fairness monitor, the
// verifier page's three tabs and the <arcade-verifier> element (docs/proofs.md, "Verdicts").
//
//   pass                    re-derived by the wasm core at nonce 0, signed by the pinned signer
//                           (Commitment and Receipt), its seed included in a seed batch that
//                           signer signed, and its play signed by its own player (the Play: the
//                           commitment they were shown, their client seed, call and wager);
//   consistent, not proven  re-derived, but nothing the house cannot redo holds it: a receipt the
//                           reader brought without proofs, a round from before signing began,
//                           proofs that could not be checked here (the arcade did not answer,
//                           headlined "could not check"), a play its player did not
//                           sign (only the house says which commitment the player was shown), or
//                           a doubt the caller found (the floor: a client seed used before).
//                           Never shown as "provably fair";
//   fail                    a check failed; `check` names the first, `failures` lists them all
//                           (a game the core does not list fails `game`, and nothing else is
//                           re-derived).
//
// Every verdict names the bet id and the signer it was checked against, and the player's
// address when the reader gave it. What only the player holds (their address, their commit
// answer) is checked too when given: a third party cannot tell an address the house holds from
// a player's. Plain ES module: Node and browsers alike; the wasm modules and what was read from
// the arcade come in `context`.
import { checkInclusion, checkSignature, expectedCommitMessage, expectedMessages } from './proofs.mjs';
import { isAddress, sameAddress } from './trust.mjs';
import { oddsOf } from './stats.mjs';

export const PASS = 'pass';
export const NOT_PROVEN = 'consistent, not proven';
export const FAIL = 'fail';

/** A receipt the house served (by bet id, in the feed): from the signed mark on it must be proven. */
export const FROM_HOUSE = 'house';
/** A receipt the reader brought (pasted, an attribute, derived by hand): never the house's claim. */
export const FROM_READER = 'reader';

const describe = (mismatches) =>
  mismatches.map((m) => `${m.field} claimed ${m.claimed}, derives ${m.derived}`).join('; ');

/** The round as the core re-derives it: `{report, round, why}` (round null when it cannot be). */
export function rederive(wasm, receipt) {
  let report;
  let odds;
  try {
    report = wasm.verify(receipt);
    odds = oddsOf(report.trace);
  } catch (error) {
    return { report: null, round: null, why: `does not re-derive (${error.code ?? 'error'}: ${error.message})` };
  }
  const { derived } = report;
  const round = {
    bet_id: receipt.bet_id,
    game: receipt.game,
    params: receipt.params,
    wager: receipt.wager,
    payout: derived.payout,
    won: derived.won,
    // W of N and the exact return, as the core re-derived them.
    odds,
    house_agent: receipt.house_agent === true,
    result: derived.result,
  };
  return { report, round, why: report.verified ? null : `re-derivation differs: ${describe(report.mismatches)}` };
}

/**
 * The receipt's game is one the wasm core lists (`games()`, the core's one list), or
 * `[{check: 'game', why}]`: a round of another game is refused by name, never re-derived or
 * counted as one of these.
 */
function checkGame(wasm, receipt) {
  const game = receipt?.game;
  // No game, or not a string: a malformed receipt, which the re-derivation refuses as such.
  if (typeof game !== 'string') return [];
  const known = wasm.games();
  if (known.includes(game)) return [];
  return [{ check: 'game', why: `unknown game ${JSON.stringify(game)}; this verifier knows ${known.join(', ')}` }];
}

/** True when a receipt carries no proofs at all (missing, null, or every part null). */
export const isUnsigned = (proofs) =>
  !proofs || (proofs.batch == null && proofs.commitment == null && proofs.receipt == null);

/** Why the round's play is not proven by its player (null when it is; then a mismatch fails). */
export const PLAY_UNSIGNED = 'the player did not sign this play (proofs.play is null): the house\'s signatures hold, ' +
  'but only the house says this commitment is the one the player was shown before the client seed was known';

/**
 * The player's Play (`proofs.play`) against the Play the receipt's own fields call for, signed
 * by the receipt's `address` in the signing domain: `{failure}` when it is not that signature,
 * `{unproven}` when there is none (or this signature module cannot rebuild it), `{}` when it holds.
 * The typed data served is never trusted: the message is rebuilt from the receipt.
 */
function checkPlay({ proofs, trust }, receipt, expected) {
  const { play } = receipt.proofs;
  if (play == null) return { unproven: PLAY_UNSIGNED };
  if (!expected.play) return { unproven: 'the player\'s Play signature was not checked: this signature module cannot rebuild a Play' };
  const player = { signer: receipt.address, domain: trust.domain };
  const why = checkSignature(proofs, play, { trust: player, primaryType: 'Play', message: expected.play });
  return why ? { failure: { check: 'play_signature', why } } : {};
}

/**
 * What a receipt's proofs say: `{failures, unproven}`, each failure `{check, why}` (none when
 * every proof holds), `unproven` why they prove nothing though none fails (null when they do).
 */
export function checkProofs({ wasm, proofs, trust, batches, unreachable = null }, receipt) {
  const found = [];
  const fail = (check, why) => found.push({ check, why });
  const { batch, commitment, receipt: signed } = receipt.proofs;
  if (!batch) fail('proofs', 'signed, but names no seed batch');
  let expected = null;
  try {
    expected = expectedMessages(proofs, receipt, trust.marks.signed ?? null);
  } catch (error) {
    fail('proofs', `the receipt cannot be turned into signed messages: ${error.message}`);
  }
  let unproven = null;
  if (expected) {
    for (const [check, primaryType, object, message] of [
      ['commitment_signature', 'Commitment', commitment, expected.commitment],
      ['receipt_signature', 'Receipt', signed, expected.receipt],
    ]) {
      const why = message ? checkSignature(proofs, object, { trust, primaryType, message }) : `${primaryType}: no message expected (unsigned)`;
      if (why) fail(check, why);
    }
    const play = checkPlay({ proofs, trust }, receipt, expected);
    if (play.failure) found.push(play.failure);
    unproven = play.unproven ?? null;
  }
  if (!batch) return { failures: found, unproven };
  const published = batches?.get(batch.batch_id);
  // A batch the arcade did not answer for (`unreachable`) is not checked here, nor failed.
  if (!published && unreachable) return { failures: found, unproven };
  if (!published) return { failures: [...found, { check: 'batch', why: `seed batch ${batch.batch_id} is not published` }], unproven };
  if (published.problem) fail('batch_signature', `seed batch ${batch.batch_id}: ${published.problem}`);
  if (batch.size !== published.size) fail('inclusion', `batch size ${batch.size}, published ${published.size}`);
  const why = checkInclusion(wasm, {
    commitment: receipt.commitment, index: batch.index, size: published.size,
    audit_path: batch.audit_path, root: published.merkle_root,
  });
  if (why) fail('inclusion', why);
  return { failures: found, unproven };
}

/**
 * Arcade rounds always use nonce 0 (fairness v1, every round its own seed). No Play names the
 * nonce, so any other is one the house could have picked after it saw the client seed.
 */
function checkNonce(receipt) {
  const nonce = receipt?.nonce === undefined ? 0 : receipt.nonce;
  if (nonce === 0) return [];
  return [{ check: 'nonce', why: `the receipt's nonce is ${JSON.stringify(nonce)}; arcade rounds use nonce 0 (no Play names the nonce, so another one is the house's choice, made after it saw the client seed)` }];
}

/** The round is the address the reader gave as the player's (`player`; none given: nothing to check). */
function checkPlayer(receipt, player) {
  if (player === null || player === undefined || player === '') return [];
  if (!isAddress(player)) return [{ check: 'player', why: `${JSON.stringify(player)} is not an address (0x and 40 hex digits)` }];
  if (sameAddress(receipt?.address, player)) return [];
  return [{ check: 'player', why: `the round is ${receipt?.address ?? '(no address)'}'s, not ${player}, the address given as the player's: a round moved to another address proves nothing about yours` }];
}

/** What a commit answer and a receipt each name for the round, where they differ (in words). */
function differences(commit, receipt) {
  const place = (answer) => {
    const batch = answer.proofs?.batch;
    return batch ? `batch ${batch.batch_id} index ${batch.index}` : 'none';
  };
  const lower = (value) => (typeof value === 'string' ? value.toLowerCase() : value);
  const found = [];
  const differ = (field, mine, theirs, same) => {
    if (!same) found.push(`${field}: your commit answer ${mine}, the receipt ${theirs}`);
  };
  differ('round_id', commit.round_id, receipt.round_id, commit.round_id === receipt.round_id);
  differ('address', commit.address, receipt.address, sameAddress(commit.address, receipt.address));
  differ('commitment', commit.commitment, receipt.commitment, lower(commit.commitment) === lower(receipt.commitment));
  differ('seed', place(commit), place(receipt), place(commit) === place(receipt));
  return found;
}

/** Why a Commitment (`signed`) is not the signer's for `message` (a function: it may throw). */
function commitmentProblem({ proofs, trust }, signed, message) {
  try {
    const expected = message();
    if (expected.unsigned) return 'it carries no seed batch, so the house signed no Commitment';
    return checkSignature(proofs, signed, { trust, primaryType: 'Commitment', message: expected });
  } catch (error) {
    return `it cannot be turned into a signed message: ${error.message}`;
  }
}

/**
 * A receipt against the commit answer its player holds (`POST /api/arcade/commit`): the same
 * round id, address, commitment and place in a seed batch, or `[{check, why}]`. Two Commitments
 * the signer signed for one round id that differ are `equivocation`, proof of a cheating house
 * anyone can check (`evidence`: the signer and both signed objects); a differing receipt is
 * otherwise `commit_answer`. `context`: `{proofs, trust}` (without them nothing is proven
 * signed, and a difference is only `commit_answer`). For client libraries, and for verdicts
 * (`judgeRound`'s `commit`).
 */
export function checkAgainstCommit(receipt, commitAnswer, context = {}) {
  const isObject = (value) => typeof value === 'object' && value !== null;
  if (!isObject(commitAnswer) || !isObject(receipt)) return [{ check: 'commit_answer', why: 'not a commit answer and a receipt (objects, as the arcade answers them)' }];
  const differ = differences(commitAnswer, receipt);
  if (differ.length === 0) return [];
  const told = `the receipt is not the round of your commit answer: ${differ.join('; ')}`;
  const { proofs, trust } = context;
  if (!proofs || !trust || !isAddress(trust.signer)) return [{ check: 'commit_answer', why: `${told} (signatures not checked: no signature module or signer)` }];
  const answered = commitmentProblem(context, commitAnswer.proofs?.commitment, () => expectedCommitMessage(proofs, commitAnswer));
  if (answered) return [{ check: 'commit_answer', why: `${told} (the commit answer's own Commitment signature does not hold: ${answered})` }];
  const received = commitmentProblem(context, receipt.proofs?.commitment, () => expectedMessages(proofs, receipt, trust.marks?.signed ?? null).commitment ?? { unsigned: true });
  if (received || commitAnswer.round_id !== receipt.round_id) return [{ check: 'commit_answer', why: told }];
  const evidence = { signer: trust.signer, round_id: receipt.round_id, commit_answer: commitAnswer.proofs.commitment, receipt: receipt.proofs.commitment };
  return [{
    check: 'equivocation',
    why: `the house signed two Commitments for round ${receipt.round_id}, both by ${trust.signer}: ${differ.join('; ')}. One round takes one seed: the two signatures are proof, anyone can check, that the house changed the round after it committed`,
    evidence,
  }];
}

/** `{proven, unproven, failures}`: what the proofs say of a re-derived receipt. */
function judgeProofs(context, receipt, from) {
  const { proofs, trust } = context;
  const unproven = (why) => ({ proven: false, unproven: why, failures: [] });
  if (isUnsigned(receipt.proofs)) {
    const mark = trust?.marks.signed_from ?? 1;
    const betId = receipt.bet_id;
    if (from === FROM_HOUSE && !(Number.isSafeInteger(betId) && betId < mark)) {
      const rule = trust?.marks.published ? `the signed mark: every bet from ${mark} on` : 'no signed marks are published, so every bet';
      return { proven: false, unproven: null, failures: [{ check: 'proofs', why: `bet ${betId} carries no proofs, yet by ${rule} must carry them` }] };
    }
    return unproven(from === FROM_HOUSE
      ? `unsigned (before signing began: below the signed mark ${mark}): re-derived, but the house signed nothing for it`
      : 'no house proofs: anyone can build a receipt that re-derives; only the house\'s signatures and seed batch prove one');
  }
  if (!proofs) return unproven('its proofs could not be checked here: the signature module is not available');
  const couldNot = context.unreachable ? `could not check its proofs: ${context.unreachable}; check it again once the arcade answers` : null;
  if (!trust || !isAddress(trust.signer)) return unproven(couldNot ?? 'its proofs were not checked: there is no signer to check them against');
  const checked = checkProofs(context, receipt);
  // What the arcade did not answer is not proven; every proof it did answer is still checked.
  if (couldNot) return { proven: false, failures: checked.failures, unproven: couldNot };
  return { proven: checked.unproven === null, ...checked };
}

function reasonOf(verdict, { failures, unproven, receipt, trust, player }) {
  if (verdict === FAIL) return failures.map((f) => `${f.check}: ${f.why}`).join('; ');
  if (verdict === NOT_PROVEN) return unproven;
  const { batch_id: batchId, index } = receipt.proofs.batch;
  return `Re-derived by the wasm core; Commitment and Receipt signed by ${trust.signer}${trust.pinned ? ' (pinned)' : ''}; ` +
    `its seed is index ${index} of seed batch ${batchId}, whose root the same signer signed; ` +
    `its play signed by its player ${receipt.address}${player ? ', the address you gave' : ''}, naming that commitment before the outcome existed.`;
}

/**
 * Judges one receipt. `context`: `{wasm, proofs, trust, batches}`: the core, the signature
 * module (null where not available), the trust (`readTrust`; null offline) and the signed
 * batches (`signedBatches`). `asked`: the bet id that was asked for (the answer must be that
 * bet); `from`: FROM_HOUSE or FROM_READER. With `trustProblems: false` the trust's own
 * problems are left to the caller (the floor audit reports them once, not per round); `also`:
 * failures the caller found besides (the floor's comparison with the batch row); `doubt`: why
 * the caller holds the round unproven though every proof holds (the floor: a reused client
 * seed). What the player holds, when given: `player`, their address (another fails `player`),
 * and `commit`, their commit answer (`checkAgainstCommit`).
 * Returns `{verdict, bet_id, signer, signer_pinned, player, check, failures, reason, unsigned,
 * unsigned_play, could_not_check, doubted, proofs_hold, round, report}`: `unsigned` when the
 * receipt carries no house proofs, `could_not_check` when its proofs went unchecked because the
 * arcade did not answer what checks them (`context.unreachable` says how), `unsigned_play` when it is not proven only because its player did not sign the
 * play (every house proof holding), `doubted` when only because of `doubt`, `proofs_hold` when
 * every proof it carries holds (the house's and the player's Play), whatever else failed.
 */
export function judgeRound(context, receipt, { asked = null, from = FROM_HOUSE, trustProblems = true, also = [], doubt = null, player = null, commit = null } = {}) {
  const { trust } = context;
  const failures = [];
  const betId = receipt?.bet_id ?? null;
  if (asked !== null && betId !== asked) {
    failures.push({ check: 'bet_id', why: `the answer is ${betId === null ? 'no bet' : `bet ${betId}`}, not bet ${asked} as asked` });
  }
  if (trustProblems) failures.push(...(trust?.problems ?? []));
  const game = checkGame(context.wasm, receipt);
  failures.push(...game);
  const { report, round, why } = game.length > 0 ? { report: null, round: null, why: null } : rederive(context.wasm, receipt);
  if (why) failures.push({ check: 'rederive', why });
  failures.push(...checkNonce(receipt));
  const proof = judgeProofs(context, receipt ?? {}, from);
  failures.push(...proof.failures, ...also, ...checkPlayer(receipt, player));
  if (commit !== null) failures.push(...checkAgainstCommit(receipt, commit, context));
  const doubted = failures.length === 0 && proof.proven && doubt !== null;
  const verdict = failures.length > 0 ? FAIL : proof.proven && !doubted ? PASS : NOT_PROVEN;
  const unproven = doubted ? doubt : proof.unproven;
  return {
    verdict,
    // The bet asked about, when one was: an answer for another bet is that bet's failure.
    bet_id: asked ?? betId,
    signer: trust?.signer ?? null,
    signer_pinned: trust?.pinned ?? false,
    player: player || null,
    check: failures[0]?.check ?? null,
    failures,
    reason: reasonOf(verdict, { failures, unproven, receipt, trust, player }),
    unsigned: isUnsigned(receipt?.proofs),
    unsigned_play: verdict === NOT_PROVEN && unproven === PLAY_UNSIGNED,
    could_not_check: verdict === NOT_PROVEN && Boolean(context.unreachable) && unproven === proof.unproven && !isUnsigned(receipt?.proofs),
    doubted,
    proofs_hold: proof.proven && proof.failures.length === 0,
    round,
    report,
  };
}

/** A verdict that no receipt could be judged for (the arcade's answer was refused). */
export function refusedVerdict({ check, why, betId = null, trust = null }) {
  return {
    verdict: FAIL, bet_id: betId, signer: trust?.signer ?? null, signer_pinned: trust?.pinned ?? false, player: null,
    check, failures: [{ check, why }], reason: `${check}: ${why}`, unsigned: false, unsigned_play: false, could_not_check: false, doubted: false, proofs_hold: false, round: null, report: null,
  };
}

/** The headline a person reads first. */
export function headline(verdict) {
  if (verdict.verdict === PASS) return 'PASS: provably fair';
  if (verdict.could_not_check) return 'CONSISTENT, NOT PROVEN: could not check its proofs';
  if (verdict.verdict === NOT_PROVEN) return 'CONSISTENT, NOT PROVEN';
  return `FAIL: ${verdict.check}`;
}

/** The checks a verdict failed, each once. */
export const failedChecks = (verdict) => [...new Set(verdict.failures.map((f) => f.check))];

/** Which bet, which signer and (when given) which player the verdict is about, in words. */
export function subject(verdict) {
  const signer = verdict.signer ? `${verdict.signer}${verdict.signer_pinned ? ' (pinned)' : ' (from the manifest, not pinned)'}` : 'none';
  const player = verdict.player ? ` · player ${verdict.player} (yours, as given)` : '';
  return `bet ${verdict.bet_id ?? '(none)'} · signer ${signer}${player}`;
}
