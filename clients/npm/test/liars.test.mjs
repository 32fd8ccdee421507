// A lying house is caught: a proxy between the client and the real arcade rewrites one field
// of what the arcade answers, per case, and the client throws VerificationError naming the
// check that failed (the shared verdict's `check`).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Arcade, ArcadeError, VerificationError } from '../dist/index.js';
import { OTHER_SIGNER, PLAY_LIES, lieAboutSigner, onPlay } from './lies.mjs';
import { startProxy } from './proxy.mjs';
import { freePlayer, startStack } from './stack.mjs';

let stack;
let proxy;
before(async () => {
  stack = await startStack();
  proxy = await startProxy(stack.baseUrl);
});
after(async () => {
  await proxy?.stop();
  await stack?.stop();
});

const table = [];
after(() => {
  console.log('lying house: field rewritten → error (check)');
  for (const [field, error, check] of table) console.log(`  ${field} → ${error} (${check})`);
});

for (const [field, rewrite, check] of PLAY_LIES) {
  test(`${field} rewritten: VerificationError naming ${check}`, async () => {
    proxy.rewrite = rewrite;
    try {
      const arcade = await Arcade.connect(proxy.url, { account: await freePlayer(stack.baseUrl) });
      await assert.rejects(arcade.flip({ wager: 1, call: 'heads' }), (error) => {
        assert.ok(error instanceof VerificationError, `${error}`);
        assert.equal(error.check, check, error.message);
        table.push([field, error.name, error.check]);
        return true;
      });
    } finally {
      proxy.rewrite = null;
    }
  });
}

/** One player for the successor cases (free chips are rate limited per client). */
let chaining = null;
const chainingPlayer = async () => (chaining ??= await Arcade.connect(proxy.url, { account: await freePlayer(stack.baseUrl) }));

/** A commit answer for `receipt`'s round, as the arcade answered it before the round was played. */
const commitAnswerOf = (receipt) => ({
  round_id: receipt.round_id, address: receipt.address, commitment: receipt.commitment, fairness_version: receipt.fairness_version,
  created_at: receipt.committed_at, expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  proofs: { batch: receipt.proofs.batch, commitment: receipt.proofs.commitment },
});

test('a successor whose commitment the answer rewrote is never played: the Play signed for it is refused, nothing changes, the next round is committed afresh', async () => {
  const arcade = await chainingPlayer();
  proxy.rewrite = onPlay((answer) => { answer.next_round.commitment = `0x${'11'.repeat(32)}`; });
  try {
    const first = await arcade.flip({ wager: 1, call: 'heads' });
    assert.equal(first.verdict.verdict, 'pass', 'the round itself is honest');
    proxy.rewrite = null;
    // The Play names the commitment the client was shown; the round's own is another.
    await assert.rejects(arcade.flip({ wager: 1, call: 'heads' }), (error) => {
      assert.ok(error instanceof ArcadeError, `${error}`);
      assert.equal(error.code, 'play_signature_mismatch', error.message);
      table.push(['the successor\'s commitment (next_round.commitment)', error.name, error.code]);
      return true;
    });
    assert.equal((await arcade.balance()).chips, first.balance, 'the refused play cost nothing');
    const after = await arcade.flip({ wager: 1, call: 'tails' });
    assert.equal(after.chained, false, 'the successor is not offered again');
    assert.equal(after.verdict.verdict, 'pass');
  } finally {
    proxy.rewrite = null;
  }
});

test('a chained play answered "expired" after it settled is never played again on another round: one Play sent, charged once', async () => {
  const arcade = await chainingPlayer();
  const first = await arcade.flip({ wager: 1, call: 'heads' });
  proxy.log.length = 0;
  // The play goes through (the round settles), its answer is swapped for an unsigned refusal:
  // what a house hiding a round it would lose, or a party in the middle, would answer.
  proxy.answer = (method, path) => (method === 'POST' && path === '/api/arcade/dice'
    ? { status: 409, body: { code: 'round_expired', detail: 'the round expired unplayed' } } : undefined);
  try {
    await assert.rejects(arcade.dice({ wager: 5, target: 50 }), (error) => {
      assert.ok(error instanceof ArcadeError, `${error}`);
      assert.equal(error.code, 'round_expired');
      return true;
    });
  } finally {
    proxy.answer = null;
  }
  const plays = proxy.log.filter((entry) => entry.method === 'POST' && /^\/api\/arcade\/(flip|dice|roulette|limbo)$/.test(entry.path));
  assert.equal(plays.length, 1, 'one Play sent: no second round played in its place');
  assert.equal(proxy.log.filter((entry) => entry.path === '/api/arcade/commit').length, 0, 'no commit behind it');
  const round = await (await fetch(new URL(`/api/arcade/rounds/${JSON.parse(plays[0].sent).round_id}`, stack.baseUrl))).json();
  assert.equal(round.state, 'settled', 'the play the answer hid did settle');
  assert.equal((await arcade.balance()).chips, first.balance - 5 + round.receipt.payout, 'the one settled round, charged once');
  table.push(['a chained play\'s answer swapped for round_expired', 'ArcadeError', 'round_expired, not played again']);
});

test('a successor naming a round already played, answered with its old receipt: VerificationError naming sent_play', async () => {
  const arcade = await chainingPlayer();
  try {
    const first = await arcade.flip({ wager: 1, call: 'heads' });
    const oldReceipt = first.receipt;
    // The next answer names that round (committed, signed, long played) as the successor …
    proxy.rewrite = onPlay((answer) => { answer.next_round = commitAnswerOf(oldReceipt); });
    await arcade.flip({ wager: 1, call: 'heads' });
    proxy.rewrite = null;
    // … and the play on it is answered with round 1's receipt, a replay: nothing new settled.
    proxy.answer = (method, path) => (path === '/api/arcade/flip' ? { status: 200, body: { ...oldReceipt, replayed: true } } : undefined);
    await assert.rejects(arcade.flip({ wager: 1, call: 'heads' }), (error) => {
      assert.ok(error instanceof VerificationError, `${error}`);
      assert.equal(error.check, 'sent_play', error.message);
      assert.match(error.message, /client_seed/);
      table.push(['a successor naming a played round, its old receipt answered', error.name, error.check]);
      return true;
    });
  } finally {
    proxy.rewrite = null;
    proxy.answer = null;
  }
});

test('a rigged round whose row read is refused still fails every check that needs no row; an honest one is not proven', async () => {
  const arcade = await Arcade.connect(proxy.url, { account: await freePlayer(stack.baseUrl) });
  proxy.refuse = (method, path) => (path.includes('/rows/') ? 503 : undefined);
  try {
    await assert.rejects(arcade.flip({ wager: 1, call: 'heads' }), (error) => {
      assert.ok(error instanceof VerificationError, `${error}`);
      assert.equal(error.check, 'not_proven', error.message);
      assert.match(error.message, /could not check its proofs: the seed batch row/);
      return true;
    });
    proxy.rewrite = PLAY_LIES.find(([field]) => field === 'the payout')[1];
    await assert.rejects(arcade.flip({ wager: 1, call: 'heads' }), (error) => {
      assert.ok(error instanceof VerificationError, `${error}`);
      assert.equal(error.check, 'rederive', error.message);
      table.push(['the payout, the row read answered 503', error.name, error.check]);
      return true;
    });
  } finally {
    proxy.refuse = null;
    proxy.rewrite = null;
  }
});

test('the signer in a later manifest: the pinned signer holds, verify and audit name the signer check', async () => {
  const arcade = await Arcade.connect(proxy.url, { account: await freePlayer(stack.baseUrl) });
  const round = await arcade.flip({ wager: 1, call: 'tails' });
  assert.equal(round.verified, true);
  proxy.rewrite = lieAboutSigner;
  try {
    await assert.rejects(arcade.verify(round.bet_id), (error) => {
      assert.ok(error instanceof VerificationError, `${error}`);
      assert.equal(error.check, 'signer', error.message);
      assert.match(error.message, new RegExp(OTHER_SIGNER, 'i'));
      table.push(['the signer in a later manifest', error.name, error.check]);
      return true;
    });
    const report = await arcade.audit();
    assert.ok(report.checks.includes("signer"), JSON.stringify(report.floor));
    // Connecting afresh while the manifest names another signer than the one pinned is refused too.
    await assert.rejects(Arcade.connect(proxy.url, { account: await freePlayer(stack.baseUrl), pin: { signer: arcade.signer } }), { name: 'VerificationError', check: 'signer' });
  } finally {
    proxy.rewrite = null;
  }
  assert.equal((await arcade.verify(round.bet_id)).verified, true, 'the same bet, the honest manifest: verified');
});
