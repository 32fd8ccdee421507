// The verifier page (by bet id), its fairness monitor and the <arcade-verifier> element, in
// headless Chromium, behind a lying proxy (tests/audit-node/liar.mjs) in front of the real
// server, one case at a time (tests/audit-node/cases.mjs). The page is first opened through the
// proxy telling no lie, so this browser pins the house's signer; the element is given the
// signer by its embedding page. Also: a pasted, invented receipt is "consistent, not proven".
// The cells go to the table of cases against verifiers, printed at the end.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from '../api-node/server.mjs';
import { cell, lyingCases, matches } from '../audit-node/cases.mjs';
import { reseeded, startLiar } from '../audit-node/liar.mjs';
import { newSeedsSecret } from '../audit-node/lucky.mjs';
import { playMany } from '../audit-node/players.mjs';
import { saveCells, table } from '../audit-node/table.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'tests', 'output', 'browser');
mkdirSync(shots, { recursive: true });

const houseKey = generatePrivateKey();
const seedsSecret = newSeedsSecret();
let server;
let liar;
let site;
let browser;
let cases;
let receipts;
let signer;
const cells = [];

/** A second origin embedding the element: `/?bet=…&signer=…[&player=…]` or `/?receipt=<JSON>`. */
async function embeddingSite() {
  const http = createServer((req, res) => {
    const q = new URL(req.url, 'http://site').searchParams;
    const player = q.has('player') ? ` player="${q.get('player')}"` : '';
    const attrs = q.has('receipt')
      ? `receipt='${q.get('receipt').replaceAll("'", '&#39;')}'`
      : `bet-id="${q.get('bet')}" api="${liar.url}" signer="${q.get('signer')}"${player}`;
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><meta charset="utf-8"><title>A third-party site</title>
<script type="module" src="${liar.url}/web/verifier.js"></script>
<arcade-verifier id="v" ${attrs}></arcade-verifier>`);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${http.address().port}`, close: () => new Promise((r) => { http.closeAllConnections(); http.close(r); }) };
}

before(async () => {
  process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  process.env.ARCADE__SIGNING__KEY = houseKey;
  process.env.ARCADE__SEEDS__SECRET = seedsSecret;
  server = await startServer();
  receipts = await playMany(server.baseUrl, { players: 6, rounds: 60, newAccount: () => privateKeyToAccount(generatePrivateKey()) });
  const manifest = await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json();
  signer = manifest.signer;
  cases = await lyingCases({
    receipts, manifest, house: privateKeyToAccount(houseKey), attacker: privateKeyToAccount(generatePrivateKey()),
    puppet: privateKeyToAccount(generatePrivateKey()), upstream: server.baseUrl, secret: seedsSecret,
  });
  liar = await startLiar(server.baseUrl);
  site = await embeddingSite();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  await site?.close();
  await liar?.close();
  await server?.stop();
  if (cells.length > 0) {
    saveCells('browser', cells);
    console.log(`\ncases × the monitor, the page and the element:\n${table(cells)}`);
  }
});

/** A verdict box's verdict and the checks it names. */
const read = (box) => box.evaluate((node) => ({
  verdict: node.dataset.verdict ?? '(none)',
  checks: (node.dataset.checks ?? node.dataset.check ?? '').split(' ').filter(Boolean),
  betId: node.dataset.betId ?? null,
  text: (node.shadowRoot ?? node).textContent,
}));

/** A fresh browser that opened the page once through the honest proxy: the signer is pinned. */
async function pinnedPage() {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  liar.use(null);
  await page.goto(liar.url);
  await page.waitForSelector('body[data-ready="true"]');
  // The pin is taken from the first manifest read (an old page without pins only times out here).
  await page.waitForFunction(() => document.querySelector('#embed-snippet').textContent.includes('signer='), null, { timeout: 10_000 }).catch(() => {});
  return { context, page };
}

/** Bet `betId` verified on the page by id; `player`, when given, typed in "your address" first. */
async function verifyOnPage(page, betId, player = null) {
  if (player !== null) await page.fill('#player-address', player);
  await page.fill('#bet-id', String(betId));
  await page.click('#panel-id button[type="submit"]');
  await page.waitForSelector(`#result [data-verdict][data-bet-id="${betId}"], #result [data-verdict]:not([data-bet-id])`);
  return read(await page.$('#result [data-verdict]'));
}

/** Asks bet `a`, then at once bet `b`; waits past `a`'s late answer; what is shown then. */
async function askTwiceOnPage(page, a, b) {
  await page.fill('#bet-id', String(a));
  await page.click('#panel-id button[type="submit"]');
  await page.fill('#bet-id', String(b));
  await page.click('#panel-id button[type="submit"]');
  await page.waitForSelector('#result [data-verdict]');
  await page.waitForTimeout(3000);
  return read(await page.$('#result [data-verdict]'));
}

async function monitorVerdict(page) {
  await page.locator('#monitor').scrollIntoViewIfNeeded();
  await page.waitForSelector('#monitor-status[data-state="done"], #monitor-status[data-state="error"]', { timeout: 60_000 });
  const status = await page.$eval('#monitor-status', (box) => ({ ...box.dataset }));
  const checks = await page.$$eval('#monitor-failures [data-verdict="fail"]', (b) => (b[0]?.dataset.checks ?? '').split(' ').filter(Boolean));
  const verdict = status.verdict ?? (Number(status.failed) > 0 ? 'fail' : status.state === 'error' ? `error: ${await page.textContent('#monitor-status')}` : 'pass');
  return { verdict, checks };
}

async function elementVerdict(query, change) {
  const page = await browser.newPage();
  await page.goto(`${site.url}/?${new URLSearchParams(query)}`);
  if (change) await page.evaluate(change);
  await page.waitForFunction(() => { const v = document.querySelector('#v').dataset.verdict; return v && v !== 'checking'; }, null, { timeout: 30_000 });
  if (change) await page.waitForTimeout(3000);
  const seen = await read(await page.$('#v'));
  await page.close();
  return seen;
}

function record(c, verifier, seen, expected) {
  cells.push({ case: c.name, title: c.title, verifier, observed: { verdict: seen.verdict, checks: seen.checks }, expected });
}

for (const name of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '9a', '10', '11', '12', '13', '13a', '14']) {
  test(`case ${name}: the monitor, the page by id and the element`, async () => {
    const c = cases.find((x) => x.name === name);
    const { context, page } = await pinnedPage();
    liar.use(c.lie);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const onPage = name === '8' ? await askTwiceOnPage(page, c.earlier, c.bet) : await verifyOnPage(page, c.bet, c.player ?? null);
    record(c, 'page', onPage, c.expect.page);
    const anyone = { name: `${name}b`, title: `as ${name}, checked by id without the player's address (a third party)` };
    const unchecked = { verdict: 'pass', checks: [] };
    if (name === '13') record(anyone, 'page', await verifyOnPage(page, c.bet, ''), unchecked);
    if (name === '8') assert.equal(onPage.betId, String(c.bet), 'the later bet\'s verdict stays');
    // The step that shows the HMAC input says which nonce, and why it fails.
    if (name === '12') assert.match(onPage.text, /✘ HMAC-SHA256[\s\S]*arcade rounds use nonce 0/);
    if (name === '14') {
      // The page names the unknown game and explains no other game's outcome for it.
      assert.match(onPage.text, /FAIL: game[\s\S]*unknown game "plinko"/);
      assert.doesNotMatch(onPage.text, /pocket|u0 × 37/);
    }
    if (name === '1') {
      const below = await verifyOnPage(page, c.below);
      // The page pinned the marks it saw first (the real ones: every bet of this floor signed),
      // so the raised mark that would excuse this stripped round is refused.
      record({ name: '1b', title: 'a round below a raised signed mark, stripped (the page pinned the real marks)' }, 'page', below, { verdict: 'fail', checks: ['marks'] });
      assert.equal(below.verdict, 'fail', below.text);
      assert.ok(below.checks.includes('marks'), below.text);
    }
    if (name === '6') {
      assert.equal(await page.getAttribute('#signer-banner', 'data-state'), 'signer-changed');
      assert.match(await page.textContent('#signer-banner'), new RegExp(`pinned ${signer}[\\s\\S]*now names ${c.attacker}`));
    }
    await page.screenshot({ path: join(shots, `liar-${name}-page.png`), fullPage: false });
    const monitor = await monitorVerdict(page);
    record(c, 'monitor', monitor, c.expect.monitor);
    await context.close();

    const query = { bet: name === '8' ? c.earlier : c.bet, signer };
    const change = name === '8' ? `document.querySelector('#v').setAttribute('bet-id', '${c.bet}')` : null;
    const element = await elementVerdict(c.player ? { ...query, player: c.player } : query, change);
    record(c, 'element', element, c.expect.element);
    if (name === '13') record(anyone, 'element', await elementVerdict(query), unchecked);

    for (const [verifier, seen] of [['page', onPage], ['monitor', monitor], ['element', element]]) {
      assert.ok(matches(seen, c.expect[verifier]), `case ${name} (${c.title}): the ${verifier} says ${cell(seen)}, expected ${cell(c.expect[verifier])}${seen.text ? `\n${seen.text}` : ''}`);
    }
  });
}

test('a pasted, invented receipt is "consistent, not proven" on the page and in the element', async () => {
  liar.use(null);
  const real = receipts[5];
  const invented = { ...reseeded(real, randomBytes(32).toString('hex')), bet_id: 9_999_999, proofs: { batch: null, commitment: null, receipt: null } };
  const { context, page } = await pinnedPage();
  await page.click('#tab-receipt');
  await page.fill('#receipt', JSON.stringify(invented));
  await page.click('#panel-receipt button[type="submit"]');
  await page.waitForSelector('#result [data-verdict]');
  const onPage = await read(await page.$('#result [data-verdict]'));
  const c = { name: 'P', title: 'a pasted receipt, invented from a random seed' };
  const expected = { verdict: 'consistent, not proven', checks: [] };
  record(c, 'page', onPage, expected);
  assert.equal(onPage.verdict, 'consistent, not proven', onPage.text);
  assert.match(onPage.text, /CONSISTENT, NOT PROVEN/);
  assert.doesNotMatch(onPage.text, /provably fair/);
  await page.screenshot({ path: join(shots, 'pasted-invented.png'), fullPage: false });

  // The same invented round with a real round's proofs: the house never signed it.
  const borrowed = { ...invented, bet_id: real.bet_id, proofs: real.proofs };
  await page.fill('#receipt', JSON.stringify(borrowed));
  await page.click('#panel-receipt button[type="submit"]');
  await page.waitForSelector('#result [data-verdict="fail"]');
  const withProofs = await read(await page.$('#result [data-verdict]'));
  record({ name: 'P2', title: 'a pasted invented receipt carrying a real round\'s proofs' }, 'page', withProofs, { verdict: 'fail', checks: ['commitment_signature'] });
  assert.ok(withProofs.checks.includes('commitment_signature'), withProofs.text);
  await context.close();

  const element = await elementVerdict({ receipt: JSON.stringify(invented) });
  record(c, 'element', element, expected);
  assert.equal(element.verdict, 'consistent, not proven', element.text);
});
