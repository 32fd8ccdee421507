// The verifier page and the embeddable <arcade-verifier> in headless Chromium (Debian's, driven
// by playwright-core) against the real server: a round played over the API is verified on the
// page by id (pass), a tampered receipt fails loudly, the golden-vector self-check passes, and a
// page on a second origin embeds the element and shows a pass. Screenshots go to tests/output.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from '../api-node/server.mjs';
import { freshClientSeed, signedCall, signingDomain } from '../audit-node/play.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'tests', 'output', 'browser');
mkdirSync(shots, { recursive: true });

let server;
let browser;
let betId;
let owner;
before(async () => {
  // The suite loads the whole page (some 30 requests) many times within seconds from one
  // address, as no reader does; the limits have their own tests in the API suite.
  process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  server = await startServer();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  ({ bet_id: betId, address: owner } = await playARound());
  await serveTheFirstScreenOnce();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function api(path, body) {
  const response = await fetch(`${server.baseUrl}${path}`, body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  assert.ok(response.ok, `${path}: ${response.status}`);
  return response.json();
}

/** A roulette round (its receipt); its play signed by the player (docs/proofs.md, "Play") unless `sign` is false. */
async function playARound({ sign = true } = {}) {
  const account = privateKeyToAccount(generatePrivateKey());
  await api('/api/arcade/free', { address: account.address });
  const { statement } = await api(`/api/arcade/auth-statement/${account.address}`);
  const signature = await account.signMessage({ message: statement });
  const commit = await api('/api/arcade/commit', { address: account.address, signature });
  const body = { round_id: commit.round_id, client_seed: freshClientSeed(), wager: 5, bet: 'red' };
  const call = sign ? await signedCall(account, { commit, domain: await signingDomain(server.baseUrl), game: 'roulette', body }) : body;
  return api('/api/arcade/roulette', call);
}

// The server compresses each file once, in the background when it starts; a fresh debug
// build takes about a second for that. Ask for every file of the first screen once, as any
// earlier visitor would have, so the cold load below times a cold browser, not a server
// still compressing.
async function serveTheFirstScreenOnce() {
  const page = await (await fetch(server.baseUrl)).text();
  // The page's own files (its links to documents and entry points are not on the first screen).
  const files = [...page.matchAll(/(?:href|src)="(\/(?:web|wasm)\/[^"]+)"/g)].map((m) => m[1]);
  assert.ok(files.includes('/wasm/arcade_wasm_bg.wasm'), files.join(' '));
  for (const file of files) {
    const response = await fetch(`${server.baseUrl}${file}`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(response.status, 200, file);
    await response.arrayBuffer();
  }
}

async function openPage(viewport) {
  const page = await browser.newPage(viewport ? { viewport } : {});
  await page.goto(server.baseUrl);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

test('a round played over the API verifies on the page by id, every step shown', async () => {
  const page = await browser.newPage();
  const sizes = [];
  // Counted up to the first screenful only: a request finishing later (the verify call below)
  // would ask for its sizes after the page is closed and reject unobserved.
  const countSizes = (request) => sizes.push(request.sizes());
  page.on('requestfinished', countSizes);
  const started = performance.now();
  await page.goto(server.baseUrl);
  await page.waitForSelector('body[data-ready="true"]');
  const interactive = performance.now() - started;
  const pageClock = await page.evaluate(() => performance.now());
  // The page's own mark, from its navigation start: what a visitor waits for, without the
  // driver's round trips (goto waits for the load event, then the selector is polled).
  const readyMark = await page.evaluate(() => performance.getEntriesByName('arcade:ready')[0]?.startTime);
  assert.ok(readyMark > 0, 'the page marks arcade:ready when it sets data-ready');
  await page.waitForSelector('#recent tbody tr');
  page.off('requestfinished', countSizes);
  const bytes = (await Promise.all(sizes)).reduce((n, s) => n + s.responseBodySize + s.responseHeadersSize, 0);
  // The page's own view: encoded (compressed) body bytes of the document and every resource.
  const encoded = await page.evaluate(() =>
    [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((e) => [
      new URL(e.name).pathname,
      e.encodedBodySize,
      e.decodedBodySize,
    ]),
  );
  const wasm = encoded.filter(([path]) => path.endsWith('.wasm'));
  const sum = (list, i) => list.reduce((n, e) => n + e[i], 0);
  // Printed for the speed figures, never asserted on (wall-clock limits make flaky tests).
  console.log(
    `cold load to interactive: ${readyMark.toFixed(0)} ms on the page's clock (navigation start → arcade:ready); ` +
      `${interactive.toFixed(0)} ms as the driver sees it (goto → data-ready seen; page clock then ${pageClock.toFixed(0)} ms); ` +
      `transferred: ${bytes} bytes (headers included); encoded bodies: ${sum(encoded, 1)} bytes ` +
      `(decoded ${sum(encoded, 2)}), of which wasm ${wasm.map(([p, e, d]) => `${p.split('/').pop()} ${e} (decoded ${d})`).join(', ')}`,
  );
  // Served compressed (the 49 KB wasm to about 20 KB). The page also loads the signature
  // checker's wasm and the checking modules, since it checks every round's proofs: 83 KB.
  assert.ok(bytes < 100_000, `transferred ${bytes} bytes`);

  await page.fill('#bet-id', String(betId));
  await page.click('#panel-id button[type="submit"]');
  const verdict = await page.waitForSelector('#result [data-verdict]');
  assert.equal(await verdict.getAttribute('data-verdict'), 'pass');
  assert.equal(await verdict.getAttribute('data-bet-id'), String(betId));
  assert.match(await verdict.textContent(), /PASS: provably fair[\s\S]*signer 0x[0-9a-fA-F]{40} \(pinned\)/);
  const steps = await page.$$eval('#result li', (items) => items.map((i) => i.textContent));
  assert.equal(steps.length, 8);
  assert.ok(steps.every((s) => s.startsWith('✔')), steps.join('\n'));
  assert.match(steps[0], /SHA-256\(server_seed\)/);
  assert.match(steps[3], /\(u0 × 37\) >> 32/);
  assert.match(steps[5], /Signed by the house/);
  assert.match(steps[6], /Seed fixed in advance[\s\S]*leaf \d+ of seed batch \d+/);
  assert.match(steps[7], /Signed by the player[\s\S]*the Play signed by 0x[0-9a-fA-F]{40}, the round's owner/);
  await page.screenshot({ path: join(shots, 'verify-by-id.png'), fullPage: true });

  // The floor's own verify button does the same.
  await page.click(`#recent button[aria-label="verify bet ${betId}"]`);
  assert.equal(await page.getAttribute('#result [data-verdict]', 'data-verdict'), 'pass');
  await page.close();
});

test('a round played without the player\'s Play signature is "consistent, not proven", the house\'s proofs shown holding', async () => {
  const { bet_id: unsigned } = await playARound({ sign: false });
  const page = await openPage();
  await page.fill('#bet-id', String(unsigned));
  await page.click('#panel-id button[type="submit"]');
  const verdict = await page.waitForSelector(`#result [data-verdict][data-bet-id="${unsigned}"]`);
  assert.equal(await verdict.getAttribute('data-verdict'), 'consistent, not proven');
  const text = await verdict.textContent();
  assert.match(text, /CONSISTENT, NOT PROVEN[\s\S]*the player did not sign this play/);
  assert.doesNotMatch(text, /provably fair/);
  const steps = await page.$$eval('#result li', (items) => items.map((i) => i.textContent));
  assert.equal(steps.length, 8);
  assert.ok(steps.slice(0, 7).every((s) => s.startsWith('✔')), steps.join('\n'));
  assert.match(steps[7], /^– Signed by the player/);
  await page.screenshot({ path: join(shots, 'play-not-signed.png'), fullPage: true });
  await page.close();
});

test('given "your address", the page checks the round is yours, and remembers the address on the next visit', async () => {
  const page = await openPage();
  const ask = async () => {
    await page.fill('#bet-id', String(betId));
    await page.click('#panel-id button[type="submit"]');
    return page.waitForSelector(`#result[data-state="done"] [data-verdict][data-bet-id="${betId}"]`);
  };
  await page.fill('#player-address', owner.toLowerCase());
  const mine = await ask();
  assert.equal(await mine.getAttribute('data-verdict'), 'pass', await mine.textContent());
  assert.match(await mine.textContent(), new RegExp(`player ${owner.toLowerCase()} \\(yours, as given\\)`));
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.inputValue('#player-address'), owner.toLowerCase(), 'remembered in this browser');
  // Someone else's address: the round is not theirs, whatever its proofs say.
  const other = privateKeyToAccount(generatePrivateKey()).address;
  await page.fill('#player-address', other);
  const theirs = await ask();
  assert.equal(await theirs.getAttribute('data-verdict'), 'fail');
  assert.equal(await theirs.getAttribute('data-checks'), 'player');
  assert.match(await theirs.textContent(), new RegExp(`FAIL: player[\\s\\S]*the round is ${owner}'s, not ${other}`));
  // Every proof holds: what fails is the player's own step.
  const steps = await page.$$eval('#result li', (items) => items.map((i) => i.textContent));
  assert.ok(steps.slice(0, 7).every((step) => step.startsWith('✔')), steps.join('\n'));
  assert.match(steps[7], /^✘ Signed by the player[\s\S]*not 0x/);
  await page.screenshot({ path: join(shots, 'not-your-round.png'), fullPage: true });
  await page.close();
});

test('a tampered receipt fails loudly, naming what does not re-derive', async () => {
  const receipt = await api(`/api/arcade/verify/${betId}`);
  receipt.payout += 36;
  const page = await openPage();
  await page.click('#tab-receipt');
  await page.fill('#receipt', JSON.stringify(receipt));
  await page.click('#panel-receipt button[type="submit"]');
  const verdict = await page.waitForSelector('#result [data-verdict]');
  assert.equal(await verdict.getAttribute('data-verdict'), 'fail');
  assert.match(await verdict.textContent(), /FAIL[\s\S]*payout/);
  await page.screenshot({ path: join(shots, 'tampered-receipt.png'), fullPage: true });
  await page.close();
});

test('by hand, offline: seeds and a call re-derive with no server call at all, consistent but not proven', async () => {
  const page = await openPage();
  await page.route('**/api/**', (route) => route.abort());
  await page.click('#tab-hand');
  // The first golden vector: coinflip, client seed "a", called heads, came up tails.
  await page.fill('#hand-server-seed', '388a737d4967d7cc147c240266c3d04322a9e55a763eae9bbca5754dd745e90d');
  await page.fill('#hand-commitment', 'ad89e6162e51bd022628189138e1a2eea5e2c63a8ee81c83acff8b0c5d2cfb97');
  await page.fill('#hand-client-seed', 'a');
  await page.fill('#hand-call', 'heads');
  await page.click('#panel-hand button[type="submit"]');
  const verdict = await page.waitForSelector('#result [data-verdict]');
  // Derived by hand, the round re-derives, but no house proof holds it: never "provably fair".
  assert.equal(await verdict.getAttribute('data-verdict'), 'consistent, not proven');
  assert.match(await verdict.textContent(), /CONSISTENT, NOT PROVEN[\s\S]*0x5a00accf = 1509993679[\s\S]*tails/);
  await page.close();
});

test('by hand, a limbo round shows each step: the crash point from u0, the target, the exact return', async () => {
  const page = await openPage();
  await page.route('**/api/**', (route) => route.abort());
  await page.click('#tab-hand');
  // Limbo's first golden vector: target 1.01, client seed "a", drew 1.00 (u0 = 4248896143).
  await page.selectOption('#hand-game', 'limbo');
  assert.match(await page.textContent('#hand-hint'), /target multiplier/);
  await page.fill('#hand-server-seed', '32756cb6992d90515ecd94f70d008f3224595be66a4b4d94969d01642c17a211');
  await page.fill('#hand-client-seed', 'a');
  await page.fill('#hand-call', '1.01');
  await page.click('#panel-hand button[type="submit"]');
  const verdict = await page.waitForSelector('#result [data-verdict]');
  assert.equal(await verdict.getAttribute('data-verdict'), 'consistent, not proven');
  const text = await verdict.textContent();
  assert.match(text, /u0 = bytes 0\.\.4 = 0xfd41028f = 4248896143/);
  assert.match(text, /floor\(99 × 2\^32 \/ u0\) = 100[\s\S]*→ result 100 hundredths → 1\.00x/);
  assert.match(text, /"result_hundredths":100/);
  await page.screenshot({ path: join(shots, 'limbo-steps.png'), fullPage: true });
  await page.close();
});

test('by hand, the games offered are the core\'s, and a game the page does not know fails `game` by name', async () => {
  const page = await openPage();
  await page.route('**/api/**', (route) => route.abort());
  await page.click('#tab-hand');
  const offered = await page.$$eval('#hand-game option', (options) => options.map((o) => o.value));
  assert.deepEqual(offered, ['coinflip', 'dice', 'roulette', 'limbo']);
  // A form changed in the page (or a game the core knows and the page does not read).
  await page.evaluate(() => {
    const option = document.createElement('option');
    option.value = 'plinko';
    option.textContent = 'plinko';
    document.querySelector('#hand-game').append(option);
    document.querySelector('#hand-game').value = 'plinko';
  });
  await page.fill('#hand-server-seed', '388a737d4967d7cc147c240266c3d04322a9e55a763eae9bbca5754dd745e90d');
  await page.fill('#hand-client-seed', 'a');
  await page.fill('#hand-call', '2.00');
  await page.click('#panel-hand button[type="submit"]');
  const verdict = await page.waitForSelector('#result [data-verdict]');
  assert.equal(await verdict.getAttribute('data-verdict'), 'fail');
  assert.equal(await verdict.getAttribute('data-check'), 'game');
  const text = await verdict.textContent();
  assert.match(text, /FAIL: game[\s\S]*unknown game "plinko"/);
  assert.doesNotMatch(text, /pocket|u0 × 37/);
  await page.close();
});

test('the self-check runs every golden vector in the browser and shows the wasm version', async () => {
  const page = await openPage({ width: 390, height: 844 });
  await page.click('#self-check');
  const result = await page.waitForSelector('#self-check-result[data-passed]');
  assert.equal(await result.getAttribute('data-passed'), await result.getAttribute('data-total'));
  assert.ok(Number(await result.getAttribute('data-total')) > 100);
  assert.match(await page.textContent('#wasm-version'), /arcade-wasm \d+\.\d+\.\d+, fairness v1/);
  await page.screenshot({ path: join(shots, 'self-check-phone.png'), fullPage: true });
  await page.close();
});

test('a page on another origin embeds <arcade-verifier> and shows a pass', async () => {
  const tampered = JSON.stringify({ ...(await api(`/api/arcade/verify/${betId}`)), server_seed: '0'.repeat(64) });
  const html = `<!doctype html><meta charset="utf-8"><title>A third-party site</title>
<h1>Bet ${betId}, checked in your browser</h1>
<script type="module" src="${server.baseUrl}/web/verifier.js"></script>
<arcade-verifier id="good" bet-id="${betId}" api="${server.baseUrl}"></arcade-verifier>
<arcade-verifier id="bad" receipt='${tampered.replaceAll("'", '&#39;')}'></arcade-verifier>`;
  const site = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  try {
    const page = await browser.newPage();
    const origin = `http://127.0.0.1:${site.address().port}`;
    assert.notEqual(origin, server.baseUrl);
    await page.goto(origin);
    await page.waitForSelector('#good[data-verdict="pass"]');
    await page.waitForSelector('#bad[data-verdict="fail"]');
    const shown = await page.$eval('#good', (el) => el.shadowRoot.textContent);
    assert.match(shown, /PASS: provably fair/);
    await page.screenshot({ path: join(shots, 'embedded-second-origin.png'), fullPage: true });
    await page.close();
  } finally {
    site.close();
  }
});
