// Versions: a manifest announcing a fairness version or API shape this package does not
// speak is refused at connect; a round opened under another fairness version is not played.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { API_VERSIONS, Arcade, FAIRNESS_VERSIONS, UnsupportedServerError } from '../dist/index.js';
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

const announcing = (fields) => (method, path, json) => (path === '/api/arcade/manifest' ? { ...json, ...fields } : undefined);

test('the package records what it speaks', () => {
  assert.deepEqual(FAIRNESS_VERSIONS, [1]);
  assert.deepEqual(API_VERSIONS, ['1']);
});

test('a manifest announcing other versions is refused; announcing these, accepted', async () => {
  const account = await freePlayer(stack.baseUrl);
  for (const [fields, field] of [[{ fairness_versions: [2] }, 'fairness_versions'], [{ fairness_versions: [1, 2] }, 'fairness_versions'], [{ api_version: '2' }, 'api_version']]) {
    proxy.rewrite = announcing(fields);
    await assert.rejects(Arcade.connect(proxy.url, { account }), (error) => {
      assert.ok(error instanceof UnsupportedServerError, `${error}`);
      assert.equal(error.field, field);
      return true;
    });
  }
  proxy.rewrite = announcing({ fairness_versions: [1], api_version: '1' });
  const arcade = await Arcade.connect(proxy.url, { account });
  assert.deepEqual(arcade.compatibility, { fairness_versions: [1], api_version: '1', announced: true });
  proxy.rewrite = null;
  const plain = await Arcade.connect(proxy.url, { account });
  assert.deepEqual(plain.compatibility, { fairness_versions: [1], api_version: '1', announced: true }, 'the arcade announces what it speaks');
});

test('a round opened under another fairness version is refused before it is played', async () => {
  const arcade = await Arcade.connect(proxy.url, { account: await freePlayer(stack.baseUrl) });
  proxy.rewrite = (method, path, json) => (path === '/api/arcade/commit' ? { ...json, fairness_version: 2 } : undefined);
  try {
    await assert.rejects(arcade.flip({ wager: 1, call: 'heads' }), { name: 'UnsupportedServerError', field: 'fairness_version' });
  } finally {
    proxy.rewrite = null;
  }
  assert.equal(proxy.log.filter((entry) => entry.path === '/api/arcade/flip').length, 0, 'nothing was played');
  assert.equal((await arcade.balance()).chips, 100);
});
