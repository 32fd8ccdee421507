// The embed a server cannot hijack, in headless Chromium against the real server. A page on a
// second origin pastes the snippet from GET /api/arcade/embed: the element loads from its
// versioned paths and shows a verdict for a real bet. Then the same page with one byte changed
// in what the server sends: the element's script, a module it imports, or its wasm. The
// browser refuses each (SRI on the script, the import map's integrity on the modules, the
// pinned hash on the wasm fetch), so the changed code never runs. And the verifier page under
// its own CSP: every part of it works and no violation is reported.
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
let embed;
let site;
let siteOrigin;
before(async () => {
  process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  server = await startServer();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  betId = await playARound();
  embed = await (await fetch(`${server.baseUrl}/api/arcade/embed`)).json();
  // The embedding site: another loopback port, so another origin, serving the snippet as
  // pasted (with the bet to show).
  const html = `<!doctype html><meta charset="utf-8"><title>A third-party site</title>
<h1>Bet ${betId}, checked in your browser</h1>
${embed.snippet.replace('bet-id="42"', `bet-id="${betId}"`)}`;
  site = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${site.address().port}`;
  assert.notEqual(siteOrigin, server.baseUrl);
});
after(async () => {
  site?.close();
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

async function playARound() {
  const account = privateKeyToAccount(generatePrivateKey());
  await api('/api/arcade/free', { address: account.address });
  const { statement } = await api(`/api/arcade/auth-statement/${account.address}`);
  const signature = await account.signMessage({ message: statement });
  const commit = await api('/api/arcade/commit', { address: account.address, signature });
  // The play signed, as a player who wants it proven signs it (docs/proofs.md, "Play").
  const body = { round_id: commit.round_id, client_seed: freshClientSeed(), wager: 3, target: 50, direction: 'under' };
  const played = await api('/api/arcade/dice', await signedCall(account, { commit, domain: await signingDomain(server.baseUrl), game: 'dice', body }));
  return played.bet_id;
}

/** The set's path of a file (`web/steps.js`), as the snippet names it. */
function setPath(file) {
  const found = embed.files.find((f) => f.path.endsWith(`/${file}`));
  assert.ok(found, `${file} in ${embed.files.map((f) => f.path).join(' ')}`);
  return found.path;
}

/**
 * Serves `path` with one byte changed: in a module, one letter of its first comment (the
 * result is still valid JavaScript, so only its hash can give it away); in the wasm, its last
 * byte.
 */
async function changeOneByte(page, path) {
  await page.route(`${server.baseUrl}${path}`, async (route) => {
    const response = await route.fetch();
    const body = Buffer.from(await response.body());
    const at = path.endsWith('.wasm') ? body.length - 1 : body.indexOf('/') + 3;
    body[at] = body[at] === 0x78 ? 0x79 : 0x78;
    const headers = { ...response.headers() };
    delete headers['content-encoding'];
    delete headers['content-length'];
    await route.fulfill({ status: response.status(), headers, body });
  });
}

/** Opens the embedding site, collecting what the browser reports. */
async function openSite(tamperWith) {
  const page = await browser.newPage();
  const reported = [];
  page.on('console', (message) => reported.push(`${message.type()}: ${message.text()}`));
  if (tamperWith) await changeOneByte(page, tamperWith);
  await page.goto(siteOrigin);
  return { page, reported };
}

test('the snippet loads <arcade-verifier> on another origin and shows a pass for a real bet', async () => {
  console.log(`GET /api/arcade/embed → version ${embed.version}\nsnippet:\n${embed.snippet}`);
  const { page, reported } = await openSite();
  await page.waitForSelector('arcade-verifier[data-verdict="pass"]', { timeout: 30_000 });
  const shown = await page.$eval('arcade-verifier', (el) => el.shadowRoot.textContent);
  assert.match(shown, /PASS: provably fair/);
  // The snippet pins the house's signer, and the verdict names it as pinned.
  const { signer } = await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json();
  assert.match(embed.snippet, new RegExp(`signer="${signer}"`));
  assert.equal(await page.getAttribute('arcade-verifier', 'data-signer'), signer);
  assert.ok(shown.includes(`${signer} (pinned)`), shown);
  assert.deepEqual(reported.filter((line) => line.startsWith('error')), []);
  // Every file came from the versioned set, none from the page's own paths.
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  const fromTheArcade = loaded
    .filter((url) => url.startsWith(`${server.baseUrl}/`))
    .map((url) => new URL(url).pathname)
    .filter((p) => !p.startsWith('/api/'));
  assert.ok(fromTheArcade.length >= 8, loaded.join(' '));
  assert.ok(fromTheArcade.every((p) => p.startsWith(`/embed/${embed.version}/`)), fromTheArcade.join(' '));
  assert.ok(fromTheArcade.some((p) => p.endsWith('/arcade_wasm_bg.wasm')));
  await page.screenshot({ path: join(shots, 'embed-pinned.png'), fullPage: true });
  await page.close();
});

/** The element never defined, and the browser's report naming the refused file. */
async function assertRefused(page, reported, file) {
  await page.waitForLoadState('networkidle');
  const defined = await page.evaluate(() => customElements.get('arcade-verifier') !== undefined);
  assert.equal(defined, false, `the element is not defined when ${file} changed`);
  assert.equal(await page.getAttribute('arcade-verifier', 'data-verdict'), null);
  const refusal = reported.find((line) => line.startsWith('error') && /integrity/i.test(line) && line.includes(file));
  assert.ok(refusal, `an integrity error naming ${file}:\n${reported.join('\n')}`);
  console.log(`${file} changed by one byte → ${refusal}`);
}

test('one byte changed in the served verifier.js: the browser refuses it, the element never loads', async () => {
  const path = setPath('web/verifier.js');
  const { page, reported } = await openSite(path);
  await assertRefused(page, reported, path);
  await page.close();
});

test('one byte changed in a module the element imports: refused by the import map integrity', async () => {
  for (const file of ['web/steps.js', 'web/cores.js', 'web/wasm-pins.js', 'wasm/arcade_wasm.js', 'web/verdicts.mjs', 'web/bet.mjs']) {
    const path = setPath(file);
    const { page, reported } = await openSite(path);
    await assertRefused(page, reported, path);
    await page.close();
  }
});

test('one byte changed in the wasm: the element refuses to instantiate it and says so', async () => {
  const path = setPath('wasm/arcade_wasm_bg.wasm');
  const { page, reported } = await openSite(path);
  await page.waitForSelector('arcade-verifier[data-verdict="fail"]', { timeout: 30_000 });
  const shown = await page.$eval('arcade-verifier', (el) => el.shadowRoot.textContent);
  assert.match(shown, /wasm_refused: arcade_wasm_bg\.wasm is refused: its bytes do not match the sha384 this script pins/);
  assert.doesNotMatch(shown, /PASS/);
  const refusal = reported.find((line) => /integrity/i.test(line) && line.includes(path));
  assert.ok(refusal, reported.join('\n'));
  console.log(`${path} changed by one byte → the element shows: ${shown.slice(0, 200)}\n  browser: ${refusal}`);
  await page.screenshot({ path: join(shots, 'embed-wasm-refused.png'), fullPage: true });
  await page.close();
});

test('one byte changed in the signature checker wasm: the element fails, naming the refused wasm', async () => {
  const path = setPath('wasm/arcade_proofs_bg.wasm');
  const { page, reported } = await openSite(path);
  await page.waitForSelector('arcade-verifier[data-verdict]', { timeout: 30_000 });
  const verdict = await page.getAttribute('arcade-verifier', 'data-verdict');
  const shown = await page.$eval('arcade-verifier', (el) => el.shadowRoot.textContent);
  // Not a quieter "consistent, not proven": a server could bring that about at will.
  assert.equal(verdict, 'fail', shown);
  assert.match(shown, /wasm_refused: arcade_proofs_bg\.wasm is refused/);
  const refusal = reported.find((line) => /integrity/i.test(line) && line.includes(path));
  assert.ok(refusal, reported.join('\n'));
  console.log(`${path} changed by one byte → the element's verdict: ${verdict}\n  browser: ${refusal}`);
  await page.close();
});

test('the page and the element files carry their headers', async () => {
  for (const path of ['/', '/web/app.js', setPath('web/verifier.js')]) {
    const response = await fetch(`${server.baseUrl}${path}`);
    await response.arrayBuffer();
    const shown = [...response.headers].filter(([name]) => !['date', 'x-request-id'].includes(name));
    console.log(`GET ${path} → ${response.status}\n${shown.map(([n, v]) => `  ${n}: ${v}`).join('\n')}`);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
  }
});

test('the verifier page works under its CSP: self-check, verify by id, monitor, snippet, no violation', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const reported = [];
  // The browser's own request for /favicon.ico (the arcade has none) is not the page's.
  const own = (message) => !message.location().url.endsWith('/favicon.ico');
  page.on('console', (message) => { if (message.type() === 'error' && own(message)) reported.push(`${message.text()} (${message.location().url})`); });
  page.on('pageerror', (error) => reported.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto(server.baseUrl);
  assert.match(response.headers()['content-security-policy'], /frame-ancestors 'none'/);
  await page.waitForSelector('body[data-ready="true"]');
  await page.click('#self-check');
  const check = await page.waitForSelector('#self-check-result[data-passed]');
  assert.equal(await check.getAttribute('data-passed'), await check.getAttribute('data-total'));
  await page.fill('#bet-id', String(betId));
  await page.click('#panel-id button[type="submit"]');
  assert.equal(await (await page.waitForSelector('#result [data-verdict]')).getAttribute('data-verdict'), 'pass');
  await page.locator('#monitor').scrollIntoViewIfNeeded();
  await page.waitForSelector('#monitor-status[data-state="done"]', { timeout: 60_000 });
  assert.equal(await page.getAttribute('#monitor-status', 'data-failed'), '0');
  await page.waitForSelector('#embed-snippet[data-version]');
  assert.equal(await page.textContent('#embed-snippet'), embed.snippet);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(reported, []);
  await page.close();
});
