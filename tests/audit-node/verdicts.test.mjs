// The checking module's verdicts on a floor of one round made here and signed with viem (no
// server): pass only when re-derived, signed by the pinned signer and in a signed batch;
// "consistent, not proven" for a receipt without proofs that the house never claimed (pasted,
// or below the signed mark) or whose proofs cannot be checked; fail naming the check otherwise.
// The manifest's signed marks are checked against the pinned signer (a fixture signed here).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { signedBatches } from '../../audit/batches.mjs';
import { readTrust } from '../../audit/trust.mjs';
import { FAIL, FROM_READER, NOT_PROVEN, PASS, judgeRound } from '../../audit/verdicts.mjs';
import { signedMarks } from './cases.mjs';
import { resignReceipt, signed, stripped } from './liar.mjs';

const require = createRequire(import.meta.url);
const wasm = require('arcade-wasm');
const proofs = require('arcade-wasm/arcade_proofs.js');

const house = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());
const domain = { name: 'Provably Fair Arcade', version: '1', chainId: 31337 };
const DOMAIN_TYPE = [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }];

/** A settled round of a batch of one seed, its batch root and every signature by `house`. */
async function floorOfOne(betId = 7) {
  const seed = 'a'.repeat(64);
  const d = wasm.deriveDice({ server_seed: seed, client_seed: 'c', wager: 3, params: { target: 50, direction: 'under' } });
  const root = wasm.merkleRoot([d.commitment]);
  const listed = { batch_id: 11, size: 1, used: 1, merkle_root: root, salt: null, created_at: '2026-11-23T10:00:00Z' };
  const message = JSON.parse(proofs.expectedSeedBatchMessage(JSON.stringify(listed)));
  const types = JSON.parse(proofs.signedTypes());
  const typed = (primaryType, msg) => ({ domain, types: { EIP712Domain: DOMAIN_TYPE, [primaryType]: types[primaryType] }, primaryType, message: msg });
  const batch = { ...listed, ...(await signed(house, typed('SeedBatch', message))) };
  const receipt = {
    round_id: 'r-1', bet_id: betId, address: house.address, game: 'dice', fairness_version: 1,
    commitment: d.commitment, server_seed: seed, client_seed: 'c', nonce: 0, wager: 3,
    params: d.params, result: d.result, won: d.won, payout: d.payout, profit: d.profit,
    committed_at: '2026-11-23T10:00:01.000Z', settled_at: '2026-11-23T10:00:02.000Z', house_agent: false,
    proofs: {
      batch: { batch_id: 11, index: 0, size: 1, audit_path: [] },
      commitment: { signature: '0x', typed_data: typed('Commitment', {}) },
      receipt: { signature: '0x', typed_data: typed('Receipt', {}) },
    },
  };
  return { receipt: await resignReceipt(house, receipt), batch };
}

function contextFor(floor, manifest, pin = {}) {
  const trust = readTrust(proofs, manifest, pin);
  return { wasm, proofs, trust, batches: signedBatches({ wasm, proofs, trust }, [floor.batch]) };
}

const manifestOf = (extra = {}) => ({ signer: house.address, signing_domain: domain, ...extra });

test('a round re-derived, signed by the pinned signer and in a signed batch passes, naming bet and signer', async () => {
  const floor = await floorOfOne();
  const v = judgeRound(contextFor(floor, manifestOf(), { signer: house.address }), floor.receipt, { asked: 7 });
  assert.equal(v.verdict, PASS, v.reason);
  assert.equal(v.bet_id, 7);
  assert.equal(v.signer, house.address);
  assert.equal(v.signer_pinned, true);
});

test('signed marks signed by the pinned signer hold; by another key, or not matching their message, they fail', async () => {
  const marks = await signedMarks(house, domain, 5, 100);
  const good = readTrust(proofs, manifestOf({ signed_marks: marks }), { signer: house.address });
  assert.deepEqual(good.problems, []);
  assert.equal(good.marks.signed_from, 5);
  assert.equal(good.marks.published, true);

  const forged = readTrust(proofs, manifestOf({ signed_marks: await signedMarks(stranger, domain, 5, 100) }), { signer: house.address });
  assert.equal(forged.problems[0]?.check, 'marks');
  assert.match(forged.problems[0].why, new RegExp(`signed by ${stranger.address}`));
  assert.equal(forged.marks.signed_from, 1, 'marks that do not hold leave every bet needing its proofs');

  const moved = readTrust(proofs, manifestOf({ signed_marks: { ...marks, signed_from: 50 } }), { signer: house.address });
  assert.equal(moved.problems[0]?.check, 'marks');

  const pinnedMarks = readTrust(proofs, manifestOf({ signed_marks: marks }), { signer: house.address, marks: { signed_from: 3, house_agent_signed_from: 100 } });
  assert.match(pinnedMarks.problems.map((p) => p.why).join(), /signed marks moved: signed_from 3 → 5/);
});

test('without proofs: below the signed mark not proven, from it on a failure; a pasted one is never the house\'s claim', async () => {
  const floor = await floorOfOne(7);
  const bare = stripped(floor.receipt);
  const strict = contextFor(floor, manifestOf());
  assert.equal(strict.trust.marks.signed_from, 1, 'no published marks: strict');
  const served = judgeRound(strict, bare, { asked: 7 });
  assert.equal(served.verdict, FAIL);
  assert.equal(served.check, 'proofs');

  const below = contextFor(floor, manifestOf({ signed_marks: await signedMarks(house, domain, 8, 100) }));
  const old = judgeRound(below, bare);
  assert.equal(old.verdict, NOT_PROVEN, old.reason);
  assert.match(old.reason, /unsigned \(before signing began/);
  const at = contextFor(floor, manifestOf({ signed_marks: await signedMarks(house, domain, 7, 100) }));
  assert.equal(judgeRound(at, bare).check, 'proofs');

  const pasted = judgeRound({ wasm, proofs: null, trust: null, batches: null }, { ...bare, bet_id: 999 }, { from: FROM_READER });
  assert.equal(pasted.verdict, NOT_PROVEN);
  assert.match(pasted.reason, /no house proofs/);
});

test('each lie fails naming its check', async () => {
  const floor = await floorOfOne(7);
  const ctx = contextFor(floor, manifestOf(), { signer: house.address });
  assert.equal(judgeRound(ctx, floor.receipt, { asked: 8 }).check, 'bet_id');
  assert.equal(judgeRound(ctx, { ...floor.receipt, payout: floor.receipt.payout + 1 }).check, 'rederive');
  const swapped = contextFor(floor, { ...manifestOf(), signer: stranger.address }, { signer: house.address });
  assert.equal(judgeRound(swapped, floor.receipt).check, 'signer');
  const reSigned = await resignReceipt(stranger, floor.receipt);
  assert.equal(judgeRound(ctx, reSigned).check, 'commitment_signature');
  const elsewhere = { ...floor.receipt, proofs: { ...floor.receipt.proofs, batch: { ...floor.receipt.proofs.batch, batch_id: 12 } } };
  assert.ok(judgeRound(ctx, elsewhere).failures.some((f) => f.check === 'batch'));
  const forgedBatch = { ...floor.batch, ...(await signed(stranger, floor.batch.typed_data)) };
  const badRoot = contextFor({ ...floor, batch: forgedBatch }, manifestOf(), { signer: house.address });
  assert.equal(judgeRound(badRoot, floor.receipt).check, 'batch_signature');
});

test('proofs that cannot be checked here are "consistent, not proven", never a pass', async () => {
  const floor = await floorOfOne(7);
  const ctx = { ...contextFor(floor, manifestOf()), proofs: null };
  const v = judgeRound(ctx, floor.receipt);
  assert.equal(v.verdict, NOT_PROVEN);
  assert.match(v.reason, /signature module is not available/);
});
