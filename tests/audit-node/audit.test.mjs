// The audit command (the `arcade-audit` bin of the installed arcade-wasm package) against the
// real server: thousands of rounds played over REST by viem-signed players all audit clean
// (exit 0, the counts and chips the players saw); a feed that lies about one receipt's payout,
// one signed message field or one audit path entry fails (exit 1) naming that bet; a usage or
// network error exits 2.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from '../api-node/server.mjs';
import { playMany, totals } from './players.mjs';
import { tamperingProxy } from './tamper.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// The installed package's bin; ARCADE_AUDIT (audit/audit.mjs, with ARCADE_WASM and
// ARCADE_PROOFS) runs it from a checkout instead.
const BIN = process.env.ARCADE_AUDIT ?? join(here, 'node_modules', '.bin', 'arcade-audit');
const PLAYERS = 32;
const ROUNDS = 125;

/** Runs the audit: `{code, stdout, stderr, report}` (report parsed when --json). */
function runAudit(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const code = error ? error.code : 0;
      let report = null;
      if (args.includes('--json')) try { report = JSON.parse(stdout); } catch { /* shown by the assertion */ }
      resolve({ code, stdout, stderr, report });
    });
  });
}

let server;
let played;
before(async () => {
  assert.ok(existsSync(BIN), `${BIN}: install the packaged arcade-wasm (npm ci --install-links)`);
  process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  server = await startServer();
  const started = performance.now();
  played = await playMany(server.baseUrl, {
    players: PLAYERS, rounds: ROUNDS, newAccount: () => privateKeyToAccount(generatePrivateKey()),
  });
  console.log(`${played.length} rounds played in ${((performance.now() - started) / 1000).toFixed(1)} s`);
});
after(async () => {
  await server?.stop();
});

test('every round played audits clean: exit 0, the counts and chips the players saw', async () => {
  assert.ok(played.length > 2000, `${played.length} rounds played`);
  const { code, report, stderr, stdout } = await runAudit(server.baseUrl, '--json');
  assert.equal(code, 0, `${stderr}\n${stdout.slice(0, 4000)}`);
  assert.equal(report.rounds, played.length);
  assert.equal(report.failed, 0);
  assert.deepEqual(report.failures, []);
  assert.equal(report.signed, played.length);
  assert.equal(report.verified, played.length);
  assert.equal(report.unsigned, 0);
  assert.ok(report.batches.length >= 1 && report.batches.every((b) => b.ok));
  assert.equal(report.batches.reduce((s, b) => s + b.settled, 0), played.length);
  for (const [game, seen] of Object.entries(totals(played))) {
    const audited = report.games[game];
    assert.deepEqual({ rounds: audited.rounds, wagered: audited.wagered, paid_out: audited.paid_out }, seen, game);
    assert.equal(audited.house_agent_rounds, 0);
    assert.ok(audited.interval[0] < audited.expected_return && audited.expected_return < audited.interval[1]);
  }
  assert.equal(report.games.coinflip.expected_return.toFixed(6), '0.990000');
  assert.equal(report.games.roulette.expected_return.toFixed(6), (36 / 37).toFixed(6));
  assert.equal(report.dice_rolls.total + report.roulette_pockets.total, report.games.dice.rounds + report.games.roulette.rounds);
  assert.ok(report.dice_rolls.p_value > 0 && report.roulette_pockets.p_value > 0);
});

test('the text summary reads at a glance and --limit audits the last rounds only', async () => {
  const { code, stdout } = await runAudit(server.baseUrl, '--limit', '100');
  assert.equal(code, 0, stdout);
  assert.match(stdout, /rounds audited: 100 /);
  assert.match(stdout, /coinflip[\s\S]*dice[\s\S]*roulette[\s\S]*limbo/);
  assert.match(stdout, /chi-square/);
  assert.match(stdout, /no failures/);
});

const TAMPERS = {
  'a payout': (r) => { r.payout += 1; r.profit += 1; },
  'a signed message field': (r) => { r.proofs.receipt.typed_data.message.client_seed += 'x'; },
  'an audit path entry': (r) => {
    const path = r.proofs.batch.audit_path;
    path[0] = path[0].replace(/^./, (c) => (c === '0' ? '1' : '0'));
  },
};

for (const [what, tamper] of Object.entries(TAMPERS)) {
  test(`a feed that rewrites ${what} of one receipt fails the audit, naming that bet`, async () => {
    const victim = played[Math.floor(played.length / 2)].bet_id;
    const proxy = await tamperingProxy(server.baseUrl, victim, tamper);
    try {
      const { code, stdout, stderr, report } = await runAudit(proxy.url, '--json');
      assert.equal(code, 1, stderr + stdout.slice(0, 2000));
      assert.equal(report.failed, 1, JSON.stringify(report.failures.slice(0, 6)));
      assert.ok(report.failures.length >= 1);
      assert.ok(report.failures.every((f) => f.bet_id === victim), JSON.stringify(report.failures));
      const text = await runAudit(proxy.url);
      assert.equal(text.code, 1);
      assert.match(text.stdout, new RegExp(`FAILURES: [\\s\\S]*bet ${victim} \\[\\w+\\]: `));
    } finally {
      await proxy.close();
    }
  });
}

test('usage and network errors exit 2', async () => {
  assert.equal((await runAudit()).code, 2);
  assert.equal((await runAudit(server.baseUrl, '--limit', 'x')).code, 2);
  const unreachable = await runAudit('http://127.0.0.1:9');
  assert.equal(unreachable.code, 2);
  assert.match(unreachable.stderr, /arcade-audit: GET \/api\/arcade\/manifest/);
});
