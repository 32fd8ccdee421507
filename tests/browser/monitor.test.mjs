// The fairness monitor on the verifier page, in headless Chromium against the real server:
// rounds played over the API are all re-derived in the browser, counted, and drawn (returns
// with their expectation and band, dice and roulette histograms); a feed answer rewritten in
// flight (one receipt's payout) shows a failure naming that bet; a slow, rate-limited feed shows
// the audit's progress and its wait, and Cancel stops it. Screenshots: tests/output.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from '../api-node/server.mjs';
import { playMany, totals } from '../audit-node/players.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'tests', 'output', 'browser');
mkdirSync(shots, { recursive: true });

let server;
let browser;
let played;
before(async () => {
  process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  server = await startServer();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  played = await playMany(server.baseUrl, {
    players: 6, rounds: 60, newAccount: () => privateKeyToAccount(generatePrivateKey()),
  });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Opens the page, brings the monitor into view and waits for its verdict. */
async function openMonitor(page) {
  await page.goto(server.baseUrl);
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#monitor').scrollIntoViewIfNeeded();
  await page.waitForSelector('#monitor-status[data-state="done"]', { timeout: 60_000 });
  return page.$eval('#monitor-status', (box) => ({ ...box.dataset }));
}

test('the monitor waits until it is scrolled to: a cold load fetches no feed', async () => {
  const page = await browser.newPage();
  const feed = [];
  page.on('request', (request) => { if (request.url().includes('/api/arcade/receipts')) feed.push(request.url()); });
  await page.goto(server.baseUrl);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('#recent tbody tr');
  assert.deepEqual(feed, []);
  assert.equal(await page.getAttribute('#monitor-status', 'data-state'), null);
  await page.close();
});

test('the monitor re-derives every round played and shows what the players got', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const counts = await openMonitor(page);
  assert.equal(Number(counts.rounds), played.length);
  assert.equal(Number(counts.verified), played.length);
  assert.equal(Number(counts.failed), 0);
  assert.equal(Number(counts.unsigned), 0);
  assert.doesNotMatch(await page.textContent('#monitor-note'), /not checked/, 'signatures were checked');
  assert.equal(counts.verdict, 'pass');
  assert.equal(await page.getAttribute('#monitor-stats', 'data-state'), 'in-band');
  assert.equal(await page.$$eval('#monitor-failures *', (n) => n.length), 0);
  const rows = await page.$$eval('#monitor-games tbody tr', (trs) => trs.map((tr) => ({ ...tr.dataset })));
  for (const [game, seen] of Object.entries(totals(played))) {
    const row = rows.find((r) => r.game === game);
    assert.deepEqual([Number(row.rounds), Number(row.wagered), Number(row.paidOut)], [seen.rounds, seen.wagered, seen.paid_out], game);
  }
  // A running-return chart per game and a histogram per game that has one, each with labelled
  // axes and a legend.
  assert.equal(await page.locator('#monitor-charts svg.chart').count(), 7);
  assert.equal(await page.locator('#monitor-charts .legend').count(), 7);
  const bars = await page.$$eval('#monitor-charts .bars', (gs) => gs.map((g) => g.querySelectorAll('rect').length));
  assert.deepEqual(bars, [100, 37, 11]);
  assert.match(await page.textContent('#monitor-charts'), /limbo results, 11 bins: chi-square p = \d/);
  assert.match(await page.textContent('#monitor-charts'), /dice rolls[\s\S]*chi-square p = \d/);
  await page.locator('#monitor').screenshot({ path: join(shots, 'monitor-clean.png') });
  await page.close();
});

test('a receipt rewritten in the feed shows as a failure, naming the bet', async () => {
  const victim = played[Math.floor(played.length / 2)].bet_id;
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.route('**/api/arcade/receipts?*', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const receipt of body.receipts) if (receipt.bet_id === victim) receipt.payout += 1;
    await route.fulfill({ response, json: body });
  });
  const counts = await openMonitor(page);
  assert.equal(Number(counts.failed), 1);
  assert.equal(Number(counts.verified), played.length - 1);
  const banner = page.locator('#monitor-failures [data-verdict="fail"]');
  // The payout is re-derived otherwise, and it is a field of the signed Receipt.
  assert.equal(await banner.getAttribute('data-checks'), 'rederive receipt_signature');
  assert.match(await banner.textContent(), new RegExp(`FAIL: 2 checks failed[\\s\\S]*bet ${victim} \\[rederive\\]: re-derivation differs: payout`));
  await page.locator('#monitor').screenshot({ path: join(shots, 'monitor-tampered-phone.png') });
  await page.close();
});

test('a long audit shows its progress and the rate limit\'s wait, and Cancel stops it', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  // The feed's first read is refused with a 429 asking for 2 s; then it is read 50 receipts a
  // page (the server's own paging, asked for smaller pages), each page held 600 ms.
  let refused = false;
  await page.route('**/api/arcade/receipts?*', async (route) => {
    if (!refused) {
      refused = true;
      return route.fulfill({ status: 429, headers: { 'retry-after': '2' }, json: { code: 'rate_limited', retry_after_s: 2 } });
    }
    await new Promise((resolve) => setTimeout(resolve, 600));
    // A read the Cancel aborted is gone by then.
    return route.continue({ url: route.request().url().replace(/limit=\d+/, 'limit=50') }).catch(() => {});
  });
  await page.goto(server.baseUrl);
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#monitor').scrollIntoViewIfNeeded();
  await page.waitForSelector('#monitor-status[data-state="running"][data-waiting="2"]');
  assert.match(await page.textContent('#monitor-status'), /^Waiting 2 s: the arcade limits how fast one reader may fetch its feed\. 0 rounds checked so far/);
  assert.equal(await page.isVisible('#monitor-cancel'), true, 'Cancel is offered while it runs');
  await page.waitForFunction(() => Number(document.querySelector('#monitor-status').dataset.checked) >= 100);
  const status = await page.$eval('#monitor-status', (box) => ({ ...box.dataset, text: box.textContent }));
  assert.equal(status.state, 'running');
  assert.ok(Number(status.total) >= played.length, `the window's rounds: ${status.total}`);
  assert.match(status.text, /^Checking in this browser: \d+ of about \d+ rounds re-derived and their proofs checked · \d+ rounds\/s · about \d+ s left$/);
  const moving = await page.$eval('#monitor-status', (box) => getComputedStyle(box, '::after').animationName);
  assert.equal(moving, 'working', 'a running check shows it is working');
  await page.locator('#monitor').screenshot({ path: join(shots, 'monitor-progress.png') });
  await page.click('#monitor-cancel');
  await page.waitForSelector('#monitor-status[data-state="cancelled"]');
  assert.match(await page.textContent('#monitor-status'), /^Cancelled after \d+ rounds: no verdict on the floor\. Press Check to start again\.$/);
  assert.equal(await page.isVisible('#monitor-cancel'), false);
  // Asked again, with the feed as the server serves it, the audit runs to its verdict.
  await page.unroute('**/api/arcade/receipts?*');
  await page.click('#monitor-form button[type="submit"]');
  await page.waitForSelector('#monitor-status[data-state="done"]', { timeout: 60_000 });
  assert.equal(Number(await page.getAttribute('#monitor-status', 'data-rounds')), played.length);
  assert.equal(await page.getAttribute('#monitor-status', 'data-failed'), '0');
  await page.close();
});
