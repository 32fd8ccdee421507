// One bet, or one receipt, judged for a reader: what the verifier page's three tabs and the
// <arcade-verifier> element show. A bet asked by id is read from the arcade with the manifest
// (under the reader's pinned signer) and its seed's row of its signed batch, and judged as the house's
// claim: the answer must be that bet, and carry its proofs from the signed mark on. A receipt
// the reader brings is judged as theirs: without proofs it is "consistent, not proven", never
// failed for what the house did not claim. A player who gives their address (`player`) or their
// commit answer (`commit`) has the round checked against it too: only they can tell an address
// the house holds from theirs. `latestOnly` keeps a late answer from replacing a later verdict.
import { judgeRow, signedBatches } from './batches.mjs';
import { fetchBatchRow, fetchManifest, getJson } from './feed.mjs';
import { readTrust } from './trust.mjs';
import { FROM_HOUSE, FROM_READER, isUnsigned, judgeRound, refusedVerdict } from './verdicts.mjs';

/** The trust (under `pin`) of the arcade at `api`; no batch is known yet (`seedRow` reads one). */
export async function readArcade({ api, proofs, pin = {}, signal }) {
  const manifest = await fetchManifest(api, { signal });
  return { trust: readTrust(proofs, manifest, pin), batches: new Map() };
}

/**
 * The row of a receipt's seed with its batch's signed root (one read of a few kilobytes,
 * whatever the batch's size): `{batches, also}`, the batch as `signedBatches` checks it and the
 * row's failures against the receipt (`judgeRow`). Every receipt's own row is read and judged;
 * a batch already in `batches` keeps the root it was first signed with, and a row answered
 * under another root or size for it fails `batch_row` (an arcade showing two roots for one
 * batch). An answer never adds or replaces any other batch than the one the receipt names. A
 * row the arcade does not have fails; an arcade that cannot be reached throws.
 */
export async function seedRow({ api, wasm, proofs, trust, batches = new Map(), signal }, receipt) {
  const claim = receipt?.proofs?.batch;
  if (!claim || !proofs || isUnsigned(receipt.proofs)) return { batches, also: [] };
  if (!Number.isSafeInteger(claim.batch_id) || !Number.isSafeInteger(claim.index)) {
    return { batches, also: [{ check: 'batch_row', why: `the receipt names seed batch ${JSON.stringify(claim.batch_id)} index ${JSON.stringify(claim.index)}: not whole numbers` }] };
  }
  let answer;
  try {
    answer = await fetchBatchRow(api, claim.batch_id, claim.index, { signal });
  } catch (error) {
    if (error.status !== 404) throw error;
    return { batches, also: [{ check: 'batch_row', why: `seed batch ${claim.batch_id} index ${claim.index}: ${refusal(error)}` }] };
  }
  if (answer?.batch?.batch_id !== claim.batch_id) {
    return { batches, also: [{ check: 'batch_row', why: `asked for seed batch ${claim.batch_id} index ${claim.index}, the arcade answered a row of batch ${JSON.stringify(answer?.batch?.batch_id)}` }] };
  }
  const before = batches.get(claim.batch_id);
  if (before) {
    const also = judgeRow({ wasm }, answer, receipt);
    if (answer.batch.merkle_root !== before.merkle_root || answer.batch.size !== before.size) {
      also.push({ check: 'batch_row', why: `seed batch ${claim.batch_id} index ${claim.index} was answered under root ${answer.batch.merkle_root} of ${answer.batch.size} seeds, not the root ${before.merkle_root} of ${before.size} read for it before` });
    }
    return { batches, also };
  }
  const known = new Map([...batches, ...signedBatches({ proofs, trust }, [answer.batch])]);
  return { batches: known, also: judgeRow({ wasm }, answer, receipt) };
}

const rethrowAbort = (error) => {
  if (error.name === 'AbortError') throw error;
  return error;
};

/** Why the arcade's answer was refused, in words. */
const refusal = (error) => (error.body?.code ? `the arcade answered ${error.status} ${error.body.code}: ${error.body.detail ?? ''}` : error.message);

/**
 * Bet `betId` from the arcade at `api`: `{verdict, receipt}` (receipt null when none came).
 * `modules`: `{wasm, proofs}` (proofs null where the signature module is not available);
 * `player`, `commit`: the player's address and commit answer, when given.
 */
export async function verifyBet({ api, betId, modules, pin, signal, player = null, commit = null }) {
  const asked = typeof betId === 'string' && /^\d+$/.test(betId.trim()) ? Number(betId) : betId;
  if (!Number.isSafeInteger(asked) || asked < 1) return { verdict: refusedVerdict({ check: 'bet_id', why: `${JSON.stringify(betId)} is not a bet id` }), receipt: null };
  const [arcade, answer] = await Promise.all([
    readArcade({ api, proofs: modules.proofs, pin, signal }).catch(rethrowAbort),
    getJson(api, `/api/arcade/verify/${asked}`, { signal }).catch(rethrowAbort),
  ]);
  const trust = arcade instanceof Error ? null : arcade.trust;
  if (answer instanceof Error) return { verdict: refusedVerdict({ check: 'answer', why: refusal(answer), betId: asked, trust }), receipt: null };
  if (arcade instanceof Error) return { verdict: refusedVerdict({ check: 'answer', why: `the manifest: ${refusal(arcade)}`, betId: asked }), receipt: answer };
  const row = await seedRow({ api, ...modules, ...arcade, signal }, answer).catch(rethrowAbort);
  if (row instanceof Error) return { verdict: refusedVerdict({ check: 'answer', why: `the seed batch row: ${refusal(row)}`, betId: asked, trust }), receipt: answer };
  const context = { ...modules, ...arcade, batches: row.batches };
  return { verdict: judgeRound(context, answer, { asked, from: FROM_HOUSE, player, commit, also: row.also }), receipt: answer };
}

/**
 * A receipt the reader brought (`receipt`: an object, or JSON text). Its proofs, if it has
 * any, are checked with what the arcade at `api` publishes; without proofs no server is asked.
 * `player`, `commit`: as for `verifyBet`.
 */
export async function verifyReceipt({ api, receipt, modules, pin, signal, player = null, commit = null }) {
  let parsed = receipt;
  if (typeof receipt === 'string') {
    try {
      parsed = JSON.parse(receipt);
    } catch (error) {
      return { verdict: refusedVerdict({ check: 'receipt', why: `not a receipt: ${error.message}` }), receipt: null };
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return { verdict: refusedVerdict({ check: 'receipt', why: 'not a receipt: not a JSON object' }), receipt: null };
  let arcade = { trust: null, batches: new Map() };
  let also = [];
  let unreachable = null;
  if (!isUnsigned(parsed.proofs) && api && modules.proofs) {
    // Unreachable, or answering an error, what the arcade did not answer is not checked: the
    // verdict says "not proven" and that it could not be checked, never that the receipt
    // failed for it; every proof that can be checked without it still is (and may fail).
    const known = await readArcade({ api, proofs: modules.proofs, pin, signal }).catch(rethrowAbort);
    if (known instanceof Error) {
      unreachable = `the manifest: ${refusal(known)}`;
    } else {
      arcade = known;
      const row = await seedRow({ api, ...modules, ...known, signal }, parsed).catch(rethrowAbort);
      if (row instanceof Error) unreachable = `the seed batch row: ${refusal(row)}`;
      else ({ batches: arcade.batches, also } = row);
    }
  }
  const context = { ...modules, ...arcade, unreachable };
  return { verdict: judgeRound(context, parsed, { from: FROM_READER, player, commit, also }), receipt: parsed };
}

/**
 * Sequencing for overlapping checks: `start()` aborts the check before it and answers
 * `{signal, isLatest}`; only a check whose `isLatest()` is still true may show its verdict.
 */
export function latestOnly() {
  let current = null;
  return {
    start() {
      current?.abort();
      const controller = new AbortController();
      current = controller;
      return { signal: controller.signal, isLatest: () => current === controller };
    },
  };
}
