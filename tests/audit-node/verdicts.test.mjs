// The checking module's verdicts on a floor of one round made here and signed with viem (no
// server): pass only when re-derived, signed by the pinned signer, in a signed batch, and its
// play signed by its own player; "consistent, not proven" for a receipt without proofs that the
// house never claimed (pasted, or below the signed mark), whose proofs cannot be checked, or
// whose play the player did not sign; fail naming the check otherwise (a Play that is not the
// player's signature of the round's own fields fails play_signature, even when every house
// proof holds). The manifest's signed marks are checked against the pinned signer. A round at
// another nonce than 0 fails `nonce`; a round moved to an address the house holds passes for a
// third party, and fails for its player, who gives their address (`player`) or their commit
// answer (`checkAgainstCommit`: two house Commitments for one round are `equivocation`). On the
// floor, a round listed in two batch rows fails `batch_row`.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { judgeBatch, newRows, signedBatches } from '../../audit/batches.mjs';
import { readTrust } from '../../audit/trust.mjs';
import * as checking from '../../audit/verdicts.mjs';
import { FAIL, FROM_READER, NOT_PROVEN, PASS, judgeRound } from '../../audit/verdicts.mjs';
import { signedMarks } from './cases.mjs';
import { renonced, resignReceipt, signed, stripped } from './liar.mjs';
import { signedCall } from './play.mjs';

const require = createRequire(import.meta.url);
const wasm = require('arcade-wasm');
const proofs = require('arcade-wasm/arcade_proofs.js');

const house = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());
const player = privateKeyToAccount(generatePrivateKey());
const domain = { name: 'Provably Fair Arcade', version: '1', chainId: 31337 };
const DOMAIN_TYPE = [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }];

const types = JSON.parse(proofs.signedTypes());
const typed = (primaryType, msg) => ({ domain, types: { EIP712Domain: DOMAIN_TYPE, [primaryType]: types[primaryType] }, primaryType, message: msg });

/** A seed batch of one seed (`batch_id`), its root signed by `house`. */
async function batchOfOne(batchId, commitment) {
  const listed = { batch_id: batchId, size: 1, used: 1, merkle_root: wasm.merkleRoot([commitment]), salt: null, created_at: '2026-11-23T10:00:00Z' };
  const message = JSON.parse(proofs.expectedSeedBatchMessage(JSON.stringify(listed)));
  return { ...listed, ...(await signed(house, typed('SeedBatch', message))) };
}

/** The play of `receipt` signed by `account` (the player: its owner), as the arcade serves it. */
async function signedPlay(account, receipt) {
  const { round_id, client_seed, wager, params } = receipt;
  const body = { round_id, client_seed, wager, ...params };
  const { play_signature: signature } = await signedCall(account, { commit: receipt, domain, game: receipt.game, body });
  const message = JSON.parse(proofs.expectedReceiptMessages(JSON.stringify(receipt))).play;
  return { signature, typed_data: typed('Play', message) };
}

/**
 * A settled round of a batch of one seed, its batch root and every signature by `house`, its
 * play signed by `player` (its owner), or not signed at all (`play: false`).
 */
async function floorOfOne(betId = 7, { play = true } = {}) {
  const seed = 'a'.repeat(64);
  const d = wasm.deriveDice({ server_seed: seed, client_seed: 'c', wager: 3, params: { target: 50, direction: 'under' } });
  const batch = await batchOfOne(11, d.commitment);
  const receipt = {
    round_id: 'r-1', bet_id: betId, address: player.address, game: 'dice', fairness_version: 1,
    commitment: d.commitment, server_seed: seed, client_seed: 'c', nonce: 0, wager: 3,
    params: d.params, result: d.result, won: d.won, payout: d.payout, profit: d.profit,
    committed_at: '2026-11-23T10:00:01.000Z', settled_at: '2026-11-23T10:00:02.000Z', house_agent: false,
    proofs: {
      batch: { batch_id: 11, index: 0, size: 1, audit_path: [] },
      commitment: { signature: '0x', typed_data: typed('Commitment', {}) },
      receipt: { signature: '0x', typed_data: typed('Receipt', {}) },
      play: null,
    },
  };
  if (play) receipt.proofs.play = await signedPlay(player, receipt);
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

test('a play the player did not sign is "consistent, not proven", every house proof holding: only the house vouches for the commitment', async () => {
  const floor = await floorOfOne(7, { play: false });
  const ctx = contextFor(floor, manifestOf(), { signer: house.address });
  const v = judgeRound(ctx, floor.receipt, { asked: 7 });
  assert.equal(v.verdict, NOT_PROVEN, v.reason);
  assert.deepEqual(v.failures, []);
  assert.match(v.reason, /the player did not sign this play/);
  const absent = { ...floor.receipt, proofs: { ...floor.receipt.proofs } };
  delete absent.proofs.play;
  assert.equal(judgeRound(ctx, absent).verdict, NOT_PROVEN, 'a receipt without proofs.play at all');
});

test('a Play by another signer than the round\'s owner, or over other fields, fails play_signature', async () => {
  const floor = await floorOfOne(7);
  const ctx = contextFor(floor, manifestOf(), { signer: house.address });
  const { play } = floor.receipt.proofs;
  const withPlay = (next) => ({ ...floor.receipt, proofs: { ...floor.receipt.proofs, play: next } });
  for (const [who, account] of [['the house', house], ['a stranger', stranger]]) {
    const v = judgeRound(ctx, withPlay(await signed(account, play.typed_data)));
    assert.equal(v.verdict, FAIL, who);
    assert.deepEqual(v.failures.map((f) => f.check), ['play_signature'], who);
    assert.match(v.reason, new RegExp(`play_signature: .*signed by ${account.address}, not the round's player ${player.address}`), who);
  }
  // The typed data shown with another wager than the player signed: rebuilt from the receipt,
  // never taken from what is served, so the signature no longer names the player.
  const shown = withPlay({ ...play, typed_data: { ...play.typed_data, message: { ...play.typed_data.message, wager: 300 } } });
  assert.equal(judgeRound(ctx, shown).verdict, FAIL);
  // A receipt whose round id moved (house proofs signed again for it): the Play names another
  // round. Shown as the player signed it, the field is named; rebuilt for the new round (as the
  // arcade shows it), the signature no longer names the player.
  const moved = await resignReceipt(house, { ...floor.receipt, round_id: 'r-2' });
  const v = judgeRound(ctx, moved);
  assert.deepEqual(v.failures.map((f) => f.check), ['play_signature']);
  assert.match(v.reason, new RegExp(`signed by 0x[0-9a-fA-F]{40}, not the round's player ${player.address}`));
  const asSigned = judgeRound(ctx, { ...moved, proofs: { ...moved.proofs, play } });
  assert.match(asSigned.reason, /message.round_id is "r-1", expected "r-2"/);
  // Not a signature at all.
  assert.equal(judgeRound(ctx, withPlay({ ...play, signature: '0x12' })).check, 'play_signature');
});

/**
 * The floor's round re-seeded by the house: a seed ground to make the player lose, put into a
 * batch of one (12) signed now, the round's Commitment and Receipt signed again; `moved` fields
 * changed besides (`{address, round_id}`). `{rigged, ctx (both batches published), fresh}`.
 */
async function reseededByTheHouse(floor, moved = {}, { playedBy = null } = {}) {
  let seed;
  let d;
  for (let i = 0; ; i++) {
    seed = i.toString(16).padStart(64, '0');
    d = wasm.deriveDice({ server_seed: seed, client_seed: 'c', wager: 3, params: { target: 50, direction: 'under' } });
    if (!d.won && d.commitment !== floor.receipt.commitment) break;
  }
  const fresh = await batchOfOne(12, d.commitment);
  const receipt = {
    ...floor.receipt, ...moved, commitment: d.commitment, server_seed: seed, result: d.result, won: d.won, payout: d.payout, profit: d.profit,
    proofs: { ...floor.receipt.proofs, batch: { batch_id: 12, index: 0, size: 1, audit_path: [] } },
  };
  if (playedBy) receipt.proofs.play = await signedPlay(playedBy, receipt);
  const trust = readTrust(proofs, manifestOf(), { signer: house.address });
  const ctx = { wasm, proofs, trust, batches: signedBatches({ wasm, proofs, trust }, [floor.batch, fresh]) };
  return { rigged: await resignReceipt(house, receipt), ctx, fresh };
}

/** The commit answer the round's player holds, as `POST /api/arcade/commit` gave it. */
const commitAnswerOf = (receipt) => ({
  round_id: receipt.round_id, address: receipt.address, commitment: receipt.commitment, fairness_version: receipt.fairness_version,
  created_at: receipt.committed_at, expires_at: '2026-11-23T10:10:01.000Z',
  proofs: { batch: receipt.proofs.batch, commitment: receipt.proofs.commitment },
});

test('a seed picked after the client seed, put into a batch signed afterwards and re-signed: every house proof holds, play_signature fails', async () => {
  const floor = await floorOfOne(7);
  const honest = contextFor(floor, manifestOf(), { signer: house.address });
  assert.equal(judgeRound(honest, floor.receipt).verdict, PASS);
  // The house grinds a seed that makes the player lose, signs a batch of one for it, and signs
  // the round's Commitment and Receipt again: the player's Play still names the commitment shown.
  const { rigged, ctx } = await reseededByTheHouse(floor);
  const v = judgeRound(ctx, rigged, { asked: 7 });
  assert.equal(v.verdict, FAIL, v.reason);
  assert.deepEqual(v.failures.map((f) => f.check), ['play_signature']);
  assert.match(v.reason, new RegExp(`not the round's player ${player.address}`));
  const asSigned = judgeRound(ctx, { ...rigged, proofs: { ...rigged.proofs, play: floor.receipt.proofs.play } });
  assert.deepEqual(asSigned.failures.map((f) => f.check), ['play_signature']);
  assert.match(asSigned.reason, new RegExp(`message.commitment is 0x${floor.receipt.commitment}, expected 0x${rigged.commitment}`));
  // Its Play withheld instead: never a pass.
  const withheld = judgeRound(ctx, { ...rigged, proofs: { ...rigged.proofs, play: null } });
  assert.equal(withheld.verdict, NOT_PROVEN);
});

test('a round settled at another nonce than 0 fails nonce, though every signature holds (no Play names the nonce)', async () => {
  const floor = await floorOfOne(7);
  const ctx = contextFor(floor, manifestOf(), { signer: house.address });
  const moved = await resignReceipt(house, renonced(floor.receipt, 1));
  const v = judgeRound(ctx, moved, { asked: 7 });
  assert.equal(v.verdict, FAIL, v.reason);
  assert.deepEqual(v.failures.map((f) => f.check), ['nonce']);
  assert.match(v.reason, /^nonce: the receipt's nonce is 1; arcade rounds use nonce 0/);
  assert.equal(judgeRound(ctx, moved, { from: FROM_READER }).check, 'nonce', 'pasted too');
  const { nonce, ...without } = floor.receipt;
  assert.equal(nonce, 0);
  assert.equal(judgeRound(ctx, without).verdict, PASS, 'no nonce is nonce 0, as the core and the Receipt read it');
});

test('given the player\'s address, a round of another address fails player; the same address in any case passes', async () => {
  const floor = await floorOfOne(7);
  const ctx = contextFor(floor, manifestOf(), { signer: house.address });
  const mine = judgeRound(ctx, floor.receipt, { player: player.address.toLowerCase() });
  assert.equal(mine.verdict, PASS, mine.reason);
  assert.match(checking.subject(mine), new RegExp(`player ${player.address.toLowerCase()} \\(yours, as given\\)`));
  const v = judgeRound(ctx, floor.receipt, { player: stranger.address });
  assert.deepEqual(v.failures.map((f) => f.check), ['player']);
  assert.match(v.reason, new RegExp(`the round is ${player.address}'s, not ${stranger.address}`));
  assert.equal(judgeRound(ctx, floor.receipt, { player: 'me' }).check, 'player', 'not an address');
});

test('moved to an address the house holds, its Play signed by that key: a pass for a third party; the player\'s address or commit answer fails it', async () => {
  const floor = await floorOfOne(7);
  const commit = commitAnswerOf(floor.receipt);
  const honest = contextFor(floor, manifestOf(), { signer: house.address });
  assert.deepEqual(checking.checkAgainstCommit(floor.receipt, commit, honest), []);
  assert.equal(judgeRound(honest, floor.receipt, { commit, player: player.address }).verdict, PASS);

  const { rigged, ctx } = await reseededByTheHouse(floor, { address: stranger.address }, { playedBy: stranger });
  assert.equal(judgeRound(ctx, rigged).verdict, PASS, 'nothing tells a third party the address is not a player\'s');
  assert.deepEqual(judgeRound(ctx, rigged, { player: player.address }).failures.map((f) => f.check), ['player']);
  const found = checking.checkAgainstCommit(rigged, commit, ctx);
  assert.deepEqual(found.map((f) => f.check), ['equivocation']);
  assert.match(found[0].why, /the house signed two Commitments for round r-1/);
  // The evidence: two Commitments for one round id, both recovering to the house's signer.
  const { evidence } = found[0];
  assert.equal(evidence.signer, house.address);
  for (const one of [evidence.commit_answer, evidence.receipt]) {
    assert.equal(proofs.recoverTypedDataSigner(JSON.stringify(one.typed_data), one.signature), house.address);
    assert.equal(one.typed_data.message.round_id, 'r-1');
  }
  assert.equal(evidence.commit_answer.typed_data.message.player, player.address);
  assert.equal(evidence.receipt.typed_data.message.player, stranger.address);
  const v = judgeRound(ctx, rigged, { commit });
  assert.equal(v.verdict, FAIL);
  assert.deepEqual(v.failures.map((f) => f.check), ['equivocation']);
});

test('against a commit answer: a renamed round fails commit_answer (two rounds, not equivocation); a commit answer the house did not sign proves nothing', async () => {
  const floor = await floorOfOne(7);
  const commit = commitAnswerOf(floor.receipt);
  const renamed = await reseededByTheHouse(floor, { address: stranger.address, round_id: 'r-9' }, { playedBy: stranger });
  assert.equal(judgeRound(renamed.ctx, renamed.rigged).verdict, PASS);
  const found = checking.checkAgainstCommit(renamed.rigged, commit, renamed.ctx);
  assert.deepEqual(found.map((f) => f.check), ['commit_answer']);
  assert.match(found[0].why, /round_id: your commit answer r-1, the receipt r-9/);
  assert.match(found[0].why, /address: your commit answer 0x[0-9a-fA-F]{40}, the receipt 0x/);

  const moved = await reseededByTheHouse(floor, { address: stranger.address }, { playedBy: stranger });
  const forged = { ...commit, proofs: { ...commit.proofs, commitment: await signed(stranger, commit.proofs.commitment.typed_data) } };
  const notTheHouse = checking.checkAgainstCommit(moved.rigged, forged, moved.ctx);
  assert.deepEqual(notTheHouse.map((f) => f.check), ['commit_answer']);
  assert.match(notTheHouse[0].why, /the commit answer's own Commitment signature does not hold/);
  // The commit answer of the round the receipt is: nothing to say, whoever signed it.
  assert.deepEqual(checking.checkAgainstCommit(floor.receipt, forged, contextFor(floor, manifestOf(), { signer: house.address })), []);
  assert.equal(checking.checkAgainstCommit(floor.receipt, 'x', moved.ctx)[0].check, 'commit_answer');
});

test('on the floor, a round listed in two batch rows fails batch_row; a revealed row naming no round fails batch_listing', async () => {
  const floor = await floorOfOne(7);
  const { rigged, ctx, fresh } = await reseededByTheHouse(floor, { address: stranger.address }, { playedBy: stranger });
  const row = (receipt, state) => ({
    index: 0, round_id: receipt.round_id, state, commitment: receipt.commitment, server_seed: receipt.server_seed,
    bet_id: state === 'settled' ? receipt.bet_id : null, house_agent: false, audit_path: [],
  });
  const real = { ...floor.batch, rounds: [row(floor.receipt, 'expired')] };
  const again = { ...fresh, rounds: [row(rigged, 'settled')] };
  const rows = newRows();
  assert.deepEqual(judgeBatch(ctx, ctx.batches.get(11), real, rows).failures, []);
  const twice = judgeBatch(ctx, ctx.batches.get(12), again, rows).failures;
  assert.deepEqual(twice.map((f) => f.check), ['batch_row']);
  assert.equal(twice[0].bet_id, 7);
  assert.match(twice[0].why, /round r-1 is listed at batch 11 index 0 and at batch 12 index 0: a round takes one seed/);
  assert.deepEqual(judgeBatch(ctx, ctx.batches.get(11), real, rows).failures, [], 'a batch read again is not its own double');
  const unnamed = judgeBatch(ctx, ctx.batches.get(11), { ...real, rounds: [{ ...row(floor.receipt, 'expired'), round_id: null }] }, newRows());
  assert.deepEqual(unnamed.failures.map((f) => f.check), ['batch_listing']);
  assert.match(unnamed.failures[0].why, /index 0 is expired, yet names no round/);
});
