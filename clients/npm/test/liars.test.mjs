// A lying house is caught: a proxy between the client and the real arcade rewrites one field
// of what the arcade answers, per case, and the client throws VerificationError naming the
// check that failed (the shared verdict's `check`).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Arcade, VerificationError } from '../dist/index.js';
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

const isPlay = (method, path) => method === 'POST' && /^\/api\/arcade\/(flip|dice|roulette|limbo)$/.test(path);
/** A rewrite of the play answers only. */
const onPlay = (change) => (method, path, json) => (isPlay(method, path) ? (change(json), json) : undefined);
const flipHex = (hex) => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');

// Each lie: the field rewritten, how, and the check the client must name.
const PLAY_LIES = [
  ['the outcome (result.outcome)', onPlay((r) => { r.result.outcome = r.result.outcome === 'heads' ? 'tails' : 'heads'; }), 'rederive'],
  ['the payout', onPlay((r) => { r.payout += 1; }), 'rederive'],
  ['the server seed', onPlay((r) => { r.server_seed = flipHex(r.server_seed); }), 'rederive'],
  ['the signature (proofs.receipt.signature)', onPlay((r) => { r.proofs.receipt.signature = `${r.proofs.receipt.signature.slice(0, 10)}${flipHex(r.proofs.receipt.signature.slice(10, 12))}${r.proofs.receipt.signature.slice(12)}`; }), 'receipt_signature'],
  ['the batch root (seed-batches list, merkle_root)', (method, path, json) => {
    if (path !== '/api/arcade/seed-batches') return undefined;
    for (const batch of json) batch.merkle_root = flipHex(batch.merkle_root);
    return json;
  }, 'batch_signature'],
  ['the audit path (proofs.batch.audit_path[0])', onPlay((r) => { r.proofs.batch.audit_path[0] = flipHex(r.proofs.batch.audit_path[0]); }), 'inclusion'],
];

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

test('the signer in a later manifest: the pinned signer holds, verify and audit name the signer check', async () => {
  const arcade = await Arcade.connect(proxy.url, { account: await freePlayer(stack.baseUrl) });
  const round = await arcade.flip({ wager: 1, call: 'tails' });
  assert.equal(round.verified, true);
  const other = '0x000000000000000000000000000000000000dEaD';
  proxy.rewrite = (method, path, json) => (path === '/api/arcade/manifest' ? { ...json, signer: other } : undefined);
  try {
    await assert.rejects(arcade.verify(round.bet_id), (error) => {
      assert.ok(error instanceof VerificationError, `${error}`);
      assert.equal(error.check, 'signer', error.message);
      assert.match(error.message, new RegExp(other, 'i'));
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
