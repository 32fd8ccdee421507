// Limbo audited at scale: over 3,000 rounds of limbo at targets from 1.01 to 10.00, played over
// REST by viem-signed players, the audit command re-derives every one, finds the return to
// player inside its band around the exact 99%, and bins the results against their fair law.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from '../api-node/server.mjs';
import { playMany } from './players.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = process.env.ARCADE_AUDIT ?? join(here, 'node_modules', '.bin', 'arcade-audit');
const TARGETS = ['1.01', '1.1', '1.5', '2.00', '2.5', '4', '10'];
const limboCall = (i) => ({ game: 'limbo', body: { target: TARGETS[i % TARGETS.length] } });

const audit = (...args) => new Promise((resolve) => {
  execFile(process.execPath, [BIN, ...args], { maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
    resolve({ code: error ? error.code : 0, stdout, stderr });
  });
});

let server;
let played;
before(async () => {
  process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  server = await startServer();
  played = await playMany(server.baseUrl, {
    players: 14, rounds: 240, call: limboCall, newAccount: () => privateKeyToAccount(generatePrivateKey()),
  });
});
after(async () => {
  await server?.stop();
});

test('over 3,000 limbo rounds audit clean, the return to player in its band around 99%', async () => {
  assert.ok(played.length >= 3000, `${played.length} rounds played`);
  const json = await audit(server.baseUrl, '--json');
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  const limbo = report.games.limbo;
  assert.equal(limbo.rounds, played.length);
  assert.equal(report.verified, played.length);
  assert.equal(limbo.wagered, played.length);
  assert.equal(limbo.paid_out, played.reduce((s, r) => s + r.payout, 0));
  assert.equal(limbo.expected_return.toFixed(6), '0.990000');
  assert.notEqual(limbo.in_band, false, `return to player ${limbo.realized_return} outside ${limbo.alarm_interval}`);
  assert.equal(report.limbo_results.total, played.length);
  assert.ok(report.limbo_results.p_value > 0);
  const text = await audit(server.baseUrl);
  const line = text.stdout.split('\n').find((l) => l.startsWith('limbo '));
  console.log(`${line}\n${text.stdout.split('\n').find((l) => l.startsWith('limbo results'))}`);
  assert.ok(line, text.stdout);
});
