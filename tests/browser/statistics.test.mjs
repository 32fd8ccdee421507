// The fairness monitor's banner for statistics out of band, in headless Chromium against the
// real server, on a floor where every proof holds: a player who knows the seeds
// (tests/audit-node/lucky.mjs) won every coinflip and put every dice roll below 5.00.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from '../api-node/server.mjs';
import { newSeedsSecret, playKnowingTheSeeds } from '../audit-node/lucky.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'tests', 'output', 'browser');
mkdirSync(shots, { recursive: true });

const secret = newSeedsSecret();
let server;
let browser;
before(async () => {
  process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  process.env.ARCADE__SEEDS__SECRET = secret;
  server = await startServer();
  await playKnowingTheSeeds(server.baseUrl, { secret, account: privateKeyToAccount(generatePrivateKey()), coinflips: 120, dice: 500 });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('every proof holds, the statistics are out of band: the monitor raises its banner', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(server.baseUrl);
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#monitor').scrollIntoViewIfNeeded();
  await page.waitForSelector('#monitor-status[data-state="done"]', { timeout: 60_000 });
  const status = await page.$eval('#monitor-status', (box) => ({ ...box.dataset }));
  assert.equal(status.failures, '0');
  assert.equal(status.verified, '620');
  assert.equal(status.verdict, 'stats out of band');
  assert.equal(await page.getAttribute('#monitor-stats', 'data-state'), 'out-of-band');
  const banner = await page.textContent('#monitor-stats');
  assert.match(banner, /Statistics out of band[\s\S]*coinflip: return to player (1\d\d|200)\.\d\d% over 120 rounds[\s\S]*dice rolls: chi-square/);
  assert.equal(await page.$$eval('#monitor-games tr.out-of-band', (rows) => rows.map((r) => r.dataset.game).join()), 'coinflip');
  await page.locator('#monitor').screenshot({ path: join(shots, 'monitor-stats-out-of-band.png') });
  await page.close();
});
