// Retry-safe plays: the answer to a play is lost after the arcade settled it (the proxy closes
// the connection instead of answering); the client asks again and gets the same receipt,
// replayed, verified, and the round is charged once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Arcade } from '../dist/index.js';
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
    assert.deepEqual({ ...r.receipt, replayed: false }, lost.body, 'the same receipt, marked replayed');
    const plays = proxy.log.filter((entry) => entry.method === 'POST' && entry.path === `/api/arcade/${game}`);
    assert.equal(plays.length, 2, 'asked twice');
    assert.equal((await arcade.balance()).chips, before - call.wager + r.payout, 'charged once');
    assert.equal(r.balance, before - call.wager + r.payout);
    proxy.log.length = 0;
  });
}
