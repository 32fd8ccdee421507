// The `web` build (ES module + separate .wasm, what the verifier page loads) instantiates from
// bytes and answers exactly like the installed nodejs build: the same exports, the same
// objects, the same errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './builds.mjs';
import { cases } from './vectors.mjs';

const [[, nodeBuild], [, web]] = builds;
const EXPORTS = ['commitment', 'derive', 'deriveCoinflip', 'deriveDice', 'deriveRoulette', 'gameDescriptions', 'games', 'merkleRoot', 'verify', 'verifyInclusion', 'verifyMany', 'version'];
const DERIVE = { coinflip: 'deriveCoinflip', dice: 'deriveDice', roulette: 'deriveRoulette' };
const same = (a, b, what) => assert.equal(JSON.stringify(a), JSON.stringify(b), what);

function outcome(fn) {
  try {
    return { value: fn() };
  } catch (e) {
    return { error: e instanceof Error, code: e.code, message: e.message };
  }
}

test('both builds export the same functions', () => {
  const names = (m) => Object.keys(m).filter((k) => typeof m[k] === 'function' && !['default', 'initSync'].includes(k)).sort();
  assert.deepEqual(names(nodeBuild), EXPORTS);
  assert.deepEqual(names(web), EXPORTS);
  assert.equal(typeof web.default, 'function', 'the web build instantiates with init()');
  same(web.version(), nodeBuild.version());
});

test('the web build verifies and derives every vector like the nodejs build', () => {
  for (const c of cases) {
    const r = c.receipt;
    same(web.verify(r), nodeBuild.verify(r), c.name);
    same(web.commitment(r.server_seed), nodeBuild.commitment(r.server_seed), c.name);
    const round = { server_seed: r.server_seed, client_seed: r.client_seed, nonce: r.nonce, wager: r.wager, params: r.params };
    same(web[DERIVE[r.game]](round), nodeBuild[DERIVE[r.game]](round), c.name);
  }
  const commitments = cases.slice(0, 7).map((c) => c.receipt.commitment);
  same(web.merkleRoot(commitments), nodeBuild.merkleRoot(commitments));
});

test('the web build refuses what the nodejs build refuses, with the same codes and messages', () => {
  const dice = cases.find((c) => c.receipt.game === 'dice').receipt;
  for (const bad of [null, {}, { ...dice, wager: 1.5 }, { ...dice, params: { target: 100 } }, { ...dice, fairness_version: 2 }]) {
    assert.deepEqual(outcome(() => web.verify(bad)), outcome(() => nodeBuild.verify(bad)));
  }
  const batch = [dice, { ...dice, client_seed: '' }];
  assert.deepEqual(outcome(() => web.verifyMany(batch)), outcome(() => nodeBuild.verifyMany(batch)));
});
