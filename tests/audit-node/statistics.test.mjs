// Statistics out of band while every proof holds: a player who knows the seeds (lucky.mjs)
// wins every coinflip (the return far above its band) and puts every dice roll below 5.00 (the
// histogram's chi-square p far below 0.001, the dice return in band). The audit exits 3, not 0
// and not 1 (no check failed), and names both; with --strict-stats it exits 1.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from '../api-node/server.mjs';
import { newSeedsSecret, playKnowingTheSeeds } from './lucky.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = process.env.ARCADE_AUDIT ?? join(here, 'node_modules', '.bin', 'arcade-audit');

// Generous: the suites run side by side on a shared machine, and a killed audit has no exit code.
const AUDIT_TIMEOUT_MS = 600_000;

function runAudit(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { maxBuffer: 64 << 20, timeout: AUDIT_TIMEOUT_MS }, (error, stdout, stderr) => {
      let report = null;
      try { report = JSON.parse(stdout); } catch { /* text, or shown by the assertion */ }
      const code = error ? (error.killed ? `killed after ${AUDIT_TIMEOUT_MS / 1000} s` : error.code) : 0;
      resolve({ code, stdout, stderr, report });
    });
  });
}

const secret = newSeedsSecret();
let server;
before(async () => {
  process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  process.env.ARCADE__SEEDS__SECRET = secret;
  server = await startServer();
  await playKnowingTheSeeds(server.baseUrl, { secret, account: privateKeyToAccount(generatePrivateKey()), coinflips: 120, dice: 500 });
});
after(async () => {
  await server?.stop();
});

test('every proof holds, the statistics are out of band: exit 3, both named', async () => {
  const run = await runAudit(server.baseUrl, '--json');
  assert.equal(run.code, 3, `${run.stderr}\n${run.stdout.slice(0, 3000)}`);
  const { report } = run;
  assert.equal(report.failures_total, 0, JSON.stringify(report.failures.slice(0, 5)));
  assert.equal(report.verified, 620);
  assert.equal(report.games.coinflip.in_band, false);
  assert.equal(report.games.dice.in_band, true, 'half the low rolls win, half lose: the dice return is in band');
  assert.equal(report.stats_problems.length, 2, report.stats_problems.join('\n'));
  // A won 1-chip flip pays 2 with probability 0.98 and 1 otherwise (fairness.md, exact return):
  // 120 wins return from 101% to 200%, 200% itself in about 9% of runs.
  assert.match(report.stats_problems[0], /^coinflip: return to player (1\d\d|200)\.\d\d% over 120 rounds, outside its band/);
  assert.match(report.stats_problems[1], /^dice rolls: chi-square \d+\.\d \(99 df\) over 500 rounds, p = .* < 0\.001/);
  const text = await runAudit(server.baseUrl);
  assert.equal(text.code, 3);
  assert.match(text.stdout, /STATISTICS OUT OF BAND:\n {2}coinflip: [\s\S]*no failures/);
});

test('--strict-stats makes statistics out of band a failure: exit 1', async () => {
  const run = await runAudit(server.baseUrl, '--strict-stats');
  assert.equal(run.code, 1, run.stdout);
  assert.match(run.stdout, /STATISTICS OUT OF BAND \(a failure: --strict-stats\)/);
});
