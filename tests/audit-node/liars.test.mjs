// The audit command behind a lying proxy (liar.mjs) in front of the real server, one case at a
// time (cases.mjs): each lie a dishonest house could tell about its floor, and the verdict the
// audit must give (exit code and the checks it names); a lie the audit cannot see (an answer
// by bet id, which it never asks for) must leave it passing. The cells go to the table of
// cases against verifiers (table.mjs), printed at the end.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from '../api-node/server.mjs';
import { lyingCases, matches, cell } from './cases.mjs';
import { proofs, startLiar, wasm } from './liar.mjs';
import { verifyReceipt } from '../../audit/bet.mjs';
import { newSeedsSecret } from './lucky.mjs';
import { playMany } from './players.mjs';
import { saveCells, table } from './table.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = process.env.ARCADE_AUDIT ?? join(here, 'node_modules', '.bin', 'arcade-audit');
/** An audit that has not ended by then never would have (a repeating feed looped the old one);
 * generous, since the suites run side by side on a shared machine. */
const AUDIT_TIMEOUT_MS = 180_000;

function runAudit(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { maxBuffer: 256 << 20, timeout: AUDIT_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error ? (error.killed ? 'timeout' : error.code) : 0;
      let report = null;
      try { report = JSON.parse(stdout); } catch { /* shown by the assertion */ }
      resolve({ code, stdout, stderr, report });
    });
  });
}

/** What the audit said, as a verdict: exit 0 pass, 1 fail (its checks), 3 stats, else none. */
function observed({ code, report }) {
  if (code === 0) return { verdict: 'pass', checks: [] };
  if (code === 1) {
    const checks = report?.failed_checks ? Object.keys(report.failed_checks) : (report?.failures ?? []).map((f) => f.check ?? '?');
    return { verdict: 'fail', checks };
  }
  if (code === 3) return { verdict: 'statistics out of band', checks: [] };
  return { verdict: code === 'timeout' ? `no verdict: still running after ${AUDIT_TIMEOUT_MS / 1000} s` : `exit ${code}`, checks: [] };
}

const houseKey = generatePrivateKey();
const seedsSecret = newSeedsSecret();
let server;
let liar;
let cases;
let signer;
const cells = [];

before(async () => {
  assert.ok(existsSync(BIN), `${BIN}: install the packaged arcade-wasm (npm ci --install-links)`);
  process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  process.env.ARCADE__SIGNING__KEY = houseKey;
  process.env.ARCADE__SEEDS__SECRET = seedsSecret;
  server = await startServer();
  const receipts = await playMany(server.baseUrl, { players: 6, rounds: 60, newAccount: () => privateKeyToAccount(generatePrivateKey()) });
  const manifest = await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json();
  signer = manifest.signer;
  assert.equal(signer, privateKeyToAccount(houseKey).address, 'the server signs with the key the test set');
  cases = await lyingCases({
    receipts, manifest, house: privateKeyToAccount(houseKey), attacker: privateKeyToAccount(generatePrivateKey()),
    puppet: privateKeyToAccount(generatePrivateKey()), upstream: server.baseUrl, secret: seedsSecret,
  });
  liar = await startLiar(server.baseUrl);
});

after(async () => {
  await liar?.close();
  await server?.stop();
  if (cells.length > 0) {
    saveCells('audit', cells);
    console.log(`\ncases × the audit command:\n${table(cells)}`);
  }
});

test('behind the proxy telling no lie, the audit passes (exit 0)', async () => {
  liar.use(null);
  const run = await runAudit(liar.url, '--json', '--signer', signer);
  assert.equal(run.code, 0, `${run.stderr}\n${run.stdout.slice(0, 3000)}`);
  assert.equal(run.report.rounds, 360);
});

for (const name of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '9a', '10', '11', '12', '13', '13a', '14']) {
  test(`case ${name}: the audit's verdict`, async () => {
    const c = cases.find((x) => x.name === name);
    liar.use(c.lie);
    // The signer pinned where it is what the case is about; elsewhere the manifest's is the house's.
    const run = await runAudit(liar.url, '--json', ...(name === '6' ? ['--signer', signer] : []));
    const seen = observed(run);
    cells.push({ case: c.name, title: c.title, verifier: 'audit', observed: seen, expected: c.expect.audit });
    assert.ok(matches(seen, c.expect.audit), `case ${name} (${c.title}): audit says ${cell(seen)}, expected ${cell(c.expect.audit)}\n${run.stderr}\n${run.stdout.slice(0, 3000)}`);
    const failures = run.report?.failures ?? [];
    for (const victim of c.victims ?? []) assert.ok(failures.some((f) => f.bet_id === victim), `bet ${victim} named: ${JSON.stringify(failures.slice(0, 5))}`);
    if (name === '1') {
      // The mark excuses only bets no signed batch settles: these were all signed, so every
      // stripped receipt fails, below the mark too (the page, by id, reads no batch rows: there
      // the round below the mark is "consistent, not proven", never a pass).
      const stripped = failures.filter((f) => f.check === 'proofs').map((f) => f.bet_id);
      assert.ok(stripped.includes(c.bet) && stripped.includes(c.below), JSON.stringify(failures.slice(0, 5)));
      assert.match(failures.find((f) => f.bet_id === c.below).why, /from a signed seed batch, yet its receipt carries no proofs/);
      assert.equal(run.report.unsigned, 0);
    }
    if (c.only) {
      // Every other proof of the lied round holds: only these checks give it away.
      assert.deepEqual(Object.keys(run.report.failed_checks).sort(), [...c.only].sort(), JSON.stringify(failures.slice(0, 5)));
    }
    if (c.inBand) {
      assert.deepEqual(run.report.stats_problems, [], 'the rigged feed keeps its statistics in band');
      for (const [game, s] of Object.entries(run.report.games)) assert.notEqual(s.in_band, false, game);
    }
    if (name === '14') {
      // Refused by name, and left out of every game's statistics (no guess at what it is).
      const renamed = failures.filter((f) => f.bet_id === c.bet);
      assert.equal(renamed[0]?.check, 'game', JSON.stringify(renamed));
      assert.match(renamed[0].why, /unknown game "plinko"/);
      assert.equal(Object.values(run.report.games).reduce((sum, s) => sum + s.rounds, 0), run.report.rounds - 1);
    }
    if (name === '6') {
      // Unpinned, nothing tells a hijacker's key from the house's: the report names the signer.
      const unpinned = await runAudit(liar.url, '--json');
      assert.equal(unpinned.code, 0);
      assert.equal(unpinned.report.signer, c.attacker);
      const text = await runAudit(liar.url, '--signer', signer);
      assert.match(text.stdout, /^!!! SIGNER: the manifest names the signer 0x[0-9a-fA-F]{40}, not the pinned/);
    }
  });
}

/** Case `name`'s lie, its victim served with proofs.play null. */
function withheld(name) {
  const c = cases.find((x) => x.name === name);
  const withhold = (r) => (r?.bet_id === c.bet ? { ...r, proofs: { ...r.proofs, play: null } } : r);
  return {
    ...c.lie,
    rewrite: (url) => {
      const rewrite = c.lie.rewrite(url);
      return rewrite && (async (answer) => {
        const out = await rewrite(answer);
        return Array.isArray(out?.receipts) ? { ...out, receipts: out.receipts.map(withhold) } : withhold(out);
      });
    },
  };
}

test('a re-seeded round whose Play the liar withholds is never a pass: listed twice it fails batch_row; renamed, "consistent, not proven" (exit 4)', async () => {
  // The player's signature cannot be forged, only left out, and a round without it is never a
  // pass. Under its own round id the re-seeded round is in two batch rows (case 10's lie).
  liar.use(withheld('10'));
  const twice = await runAudit(liar.url, '--json', '--signer', signer);
  assert.equal(twice.code, 1, `${twice.stderr}\n${twice.stdout.slice(0, 3000)}`);
  assert.deepEqual(Object.keys(twice.report.failed_checks), ['batch_row'], JSON.stringify(twice.report.failures.slice(0, 3)));
  // Renamed (case 13a's lie, the Play its puppet signed left out), nothing fails: not proven.
  liar.use(withheld('13a'));
  const run = await runAudit(liar.url, '--json', '--signer', signer);
  assert.equal(run.code, 4, `${run.stderr}\n${run.stdout.slice(0, 3000)}`);
  assert.equal(run.report.failures_total, 0, JSON.stringify(run.report.failures.slice(0, 3)));
  assert.equal(run.report.unsigned, 1);
  assert.equal(run.report.unsigned_plays, 1);
  assert.equal(run.report.verified, 359);
  const text = await runAudit(liar.url, '--signer', signer);
  assert.match(text.stdout, /no failures, but 1 round\(s\) carry no Play signed by their player/);
});

test('a mark raised above every bet, every proof stripped: a bet a signed seed batch settles still fails "proofs"', async () => {
  // The house signs new marks with its own key, claiming no bet was ever signed, and strips
  // every proof: the marks' signature holds, yet its batches list these bets as settled from
  // seeds it signed for, so they were signed, and a receipt without its proofs is a lie.
  const { signedMarks } = await import('./cases.mjs');
  const { onPaths, stripped } = await import('./liar.mjs');
  const manifest = await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json();
  const marks = await signedMarks(privateKeyToAccount(houseKey), manifest.signing_domain, 1_000_000, 1_000_000);
  liar.use({
    rewrite: onPaths({
      manifest: (m) => ({ ...m, signed_marks: marks }),
      feed: (p) => ({ ...p, receipts: p.receipts.map(stripped) }),
    }),
  });
  const run = await runAudit(liar.url, '--json', '--signer', signer);
  assert.equal(run.code, 1, `${run.stderr}\n${run.stdout.slice(0, 3000)}`);
  assert.equal(run.report.failed_checks.proofs, 360, JSON.stringify(run.report.failed_checks));
  assert.equal(run.report.unsigned, 0, 'no bet a batch settles is excused as before signing began');
});

/** The house's lie of the two tests below: marks raised above every bet (signed with its own
 * key), proofs stripped from the bets from `from` on, and their batch rows shown as expired. */
async function raisedMarksAndHiddenRows(from) {
  const { signedMarks } = await import('./cases.mjs');
  const { onPaths, stripped } = await import('./liar.mjs');
  const manifest = await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json();
  const marks = await signedMarks(privateKeyToAccount(houseKey), manifest.signing_domain, 1_000_000, 1_000_000);
  const hide = (row) => (row.state === 'settled' && row.bet_id >= from ? { ...row, state: 'expired', bet_id: null } : row);
  liar.use({
    rewrite: onPaths({
      manifest: (m) => ({ ...m, signed_marks: marks }),
      feed: (p) => ({ ...p, receipts: p.receipts.map((r) => (r.bet_id >= from ? stripped(r) : r)) }),
      anyJson: (answer) => (Array.isArray(answer?.rounds) ? { ...answer, rounds: answer.rounds.map(hide) } : answer),
    }),
  });
}

async function betIds() {
  const page = await (await fetch(`${server.baseUrl}/api/arcade/receipts?after=0&limit=1000`)).json();
  return page.receipts.map((r) => r.bet_id);
}

test('marks raised, proofs stripped from the later bets and their batch rows hidden: a bet without proofs after a signed one fails', async () => {
  const ids = await betIds();
  const from = ids[ids.length / 2];
  await raisedMarksAndHiddenRows(from);
  const run = await runAudit(liar.url, '--json', '--signer', signer);
  assert.equal(run.code, 1, `${run.stderr}\n${run.stdout.slice(0, 3000)}`);
  const stripped = run.report.failures.filter((f) => f.check === 'proofs').map((f) => f.bet_id);
  assert.deepEqual(stripped, ids.filter((id) => id >= from), JSON.stringify(run.report.failures.slice(0, 3)));
  assert.match(run.report.failures.find((f) => f.bet_id === from).why, /once signing began, every bet carries them/);
  assert.equal(run.report.unsigned, 0, 'no stripped bet is excused as "not proven"');
});

test('marks raised, every proof stripped, every row hidden: nothing fails, yet the audit exits 4 (not proven), and pinned marks catch the move', async () => {
  await raisedMarksAndHiddenRows(0);
  const run = await runAudit(liar.url, '--json', '--signer', signer);
  assert.equal(run.code, 4, `${run.stderr}\n${run.stdout.slice(0, 3000)}`);
  assert.equal(run.report.unsigned, 360);
  assert.equal(run.report.verified, 0);
  const text = await runAudit(liar.url, '--signer', signer);
  assert.match(text.stdout, /no failures, but 360 round\(s\) carry no house proof/);
  const honest = (await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json()).signed_marks;
  const pinned = await runAudit(liar.url, '--json', '--signer', signer, '--marks', `${honest.signed_from},${honest.house_agent_signed_from}`);
  assert.equal(pinned.code, 1, pinned.stdout.slice(0, 3000));
  assert.match(pinned.report.failures.find((f) => f.check === 'marks').why, /the signed marks moved/);
});

test('a receipt brought by its reader while the arcade fails its row read: "could not check", never failed or passed', async () => {
  const [betId] = await betIds();
  const receipt = await (await fetch(`${server.baseUrl}/api/arcade/verify/${betId}`)).json();
  const modules = { wasm, proofs };
  const rows = /^\/api\/arcade\/seed-batches\/\d+\/rows\/\d+$/;
  liar.use({ refuse: (url) => (rows.test(url.pathname) ? 503 : undefined) });
  const { verdict } = await verifyReceipt({ api: liar.url, receipt: JSON.stringify(receipt), modules, pin: { signer } });
  assert.equal(verdict.verdict, 'consistent, not proven', verdict.reason);
  assert.equal(verdict.could_not_check, true);
  assert.match(verdict.reason, /could not check its proofs: the seed batch row: .*503 unavailable/);
  const { headline } = await import('../../audit/verdicts.mjs');
  assert.equal(headline(verdict), 'CONSISTENT, NOT PROVEN: could not check its proofs');
  // What needs no row is still checked: a Receipt signature changed fails, row or no row.
  const signature = receipt.proofs.receipt.signature;
  const forged = { ...receipt, proofs: { ...receipt.proofs, receipt: { ...receipt.proofs.receipt, signature: `${signature.slice(0, 10)}${signature[10] === '0' ? '1' : '0'}${signature.slice(11)}` } } };
  const refused = await verifyReceipt({ api: liar.url, receipt: JSON.stringify(forged), modules, pin: { signer } });
  assert.equal(refused.verdict.verdict, 'fail', refused.verdict.reason);
  assert.ok(refused.verdict.failures.some((f) => f.check === 'receipt_signature'), refused.verdict.reason);
  // The arcade answering again, the same receipt is proven.
  liar.use(null);
  const again = await verifyReceipt({ api: liar.url, receipt: JSON.stringify(receipt), modules, pin: { signer } });
  assert.equal(again.verdict.verdict, 'pass', again.verdict.reason);
  assert.equal(again.verdict.could_not_check, false);
});
