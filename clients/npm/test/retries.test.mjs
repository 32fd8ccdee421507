// Retry-safe plays and cashouts: the answer is lost after the arcade acted (the proxy closes
// the connection instead of answering); the client asks again and gets the same receipt,
// replayed, verified, and the round is charged once; the same cashout, paid once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { privateKeyToAccount } from 'viem/accounts';

import { Arcade } from '../dist/index.js';
import { startProxy } from './proxy.mjs';
import { DEMO_PAYER_KEY, freePlayer, startStack } from './stack.mjs';

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

for (const [game, call] of [['dice', { wager: 7, target: 50 }], ['limbo', { wager: 3, target: '2.5' }]]) {
  test(`a lost ${game} answer: the retry returns the same receipt (replayed), charged once`, async () => {
    const arcade = await Arcade.connect(proxy.url, { account: await freePlayer(stack.baseUrl) });
    const before = (await arcade.balance()).chips;
    proxy.drop = (method, path) => method === 'POST' && path === `/api/arcade/${game}`;
    const r = await arcade[game](call);
    const lost = proxy.log.find((entry) => entry.dropped);
    assert.ok(lost, 'an answer was dropped');
    assert.equal(lost.body.replayed, false, 'the dropped answer settled the round');
    assert.equal(r.verified, true);
    assert.equal(r.replayed, true);
    assert.equal(r.timings.tries, 2);
    assert.equal(r.bet_id, lost.body.bet_id, 'the same bet');
    const { next_round: _opened, ...settled } = lost.body;
    assert.deepEqual({ ...r.receipt, replayed: false }, settled, 'the same receipt, marked replayed');
    const plays = proxy.log.filter((entry) => entry.method === 'POST' && entry.path === `/api/arcade/${game}`);
    assert.equal(plays.length, 2, 'asked twice');
    assert.equal((await arcade.balance()).chips, before - call.wager + r.payout, 'charged once');
    assert.equal(r.balance, before - call.wager + r.payout);
    // The replay carries the successor the lost answer opened (the play bore the statement
    // signature), and the next round is played on it: no commit, one request.
    assert.ok(lost.body.next_round, 'the lost answer opened a successor');
    assert.equal('next_round' in r.receipt, false, 'an open round\'s id is kept apart from the receipt');
    proxy.log.length = 0;
    const next = await arcade[game](call);
    assert.equal(next.chained, true);
    assert.equal(next.receipt.round_id, lost.body.next_round.round_id);
    assert.equal(`${proxy.log[0].method} ${proxy.log[0].path}`, `POST /api/arcade/${game}`, 'the round starts with its play');
    assert.equal(proxy.log.filter((entry) => entry.path === '/api/arcade/commit').length, 0, 'no commit for the successor');
    proxy.log.length = 0;
  });
}

test('a lost cashout answer: the retry under the same idempotency key is the same cashout, paid once', async () => {
  const arcade = await Arcade.connect(proxy.url, { account: privateKeyToAccount(DEMO_PAYER_KEY), maxSpend: '0.01' });
  await arcade.buyChips('micro');
  const before = (await arcade.balance()).chips;
  proxy.log.length = 0;
  proxy.drop = (method, path) => method === 'POST' && path === '/api/arcade/cashout';
  const cashout = await arcade.cashout(100);
  const lost = proxy.log.find((entry) => entry.dropped);
  assert.ok(lost, 'an answer was dropped');
  const sent = proxy.log.filter((entry) => entry.method === 'POST' && entry.path === '/api/arcade/cashout');
  assert.equal(sent.length, 2, 'asked twice');
  assert.equal(cashout.cashout_id, lost.body.cashout_id, 'the same cashout');
  assert.equal(cashout.tx_hash, lost.body.tx_hash, 'one transfer');
  assert.equal((await arcade.balance()).chips, before - 100, 'debited once');
  const other = await arcade.cashout(100).catch((error) => error);
  assert.notEqual(other.cashout_id ?? null, cashout.cashout_id, 'a new call is a new cashout');
  proxy.log.length = 0;
});
