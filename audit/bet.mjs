// One bet, or one receipt, judged for a reader: what the verifier page's three tabs and the
// <arcade-verifier> element show. A bet asked by id is read from the arcade with the manifest
// (under the reader's pinned signer) and the signed seed batches, and judged as the house's
// claim: the answer must be that bet, and carry its proofs from the signed mark on. A receipt
// the reader brings is judged as theirs: without proofs it is "consistent, not proven", never
// failed for what the house did not claim. A player who gives their address (`player`) or their
// commit answer (`commit`) has the round checked against it too: only they can tell an address
// the house holds from theirs. `latestOnly` keeps a late answer from replacing a later verdict.
import { signedBatches } from './batches.mjs';
import { fetchBatchList, fetchManifest, getJson } from './feed.mjs';
import { readTrust } from './trust.mjs';
import { FROM_HOUSE, FROM_READER, isUnsigned, judgeRound, refusedVerdict } from './verdicts.mjs';

/** The trust (under `pin`) and the signed batches of the arcade at `api`. */
export async function readArcade({ api, proofs, pin = {}, signal }) {
  const [manifest, list] = await Promise.all([fetchManifest(api, { signal }), fetchBatchList(api, { signal })]);
  const trust = readTrust(proofs, manifest, pin);
  return { trust, batches: proofs ? signedBatches({ proofs, trust }, list) : new Map() };
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
  if (arcade instanceof Error) return { verdict: refusedVerdict({ check: 'answer', why: `the manifest or the seed batches: ${refusal(arcade)}`, betId: asked }), receipt: answer };
  return { verdict: judgeRound({ ...modules, ...arcade }, answer, { asked, from: FROM_HOUSE, player, commit }), receipt: answer };
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
  if (!isUnsigned(parsed.proofs) && api && modules.proofs) {
    // Unreachable, the proofs are simply not checked: the verdict says "not proven".
    arcade = await readArcade({ api, proofs: modules.proofs, pin, signal }).catch(rethrowAbort);
    if (arcade instanceof Error) arcade = { trust: null, batches: new Map() };
  }
  return { verdict: judgeRound({ ...modules, ...arcade }, parsed, { from: FROM_READER, player, commit }), receipt: parsed };
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
