// The local MCP server as an MCP host runs it: the README's host config (its `mcpServers`
// JSON) run verbatim, only the arcade's URL and the key put in, from the packed package
// installed into an empty project (so `npx arcade-client` resolves there without the
// network), driven over stdio by the official SDK's Client. It lists its tools, buys within
// its cap and refuses above it, plays every game with each round verified before it answers,
// cashes out (the tokens seen arriving on chain), and, behind a lying proxy, refuses every lie
// as a tool error naming the check that caught it.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createPublicClient, erc20Abi, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { OTHER_SIGNER, PLAY_LIES, lieAboutSigner } from './lies.mjs';
import { startProxy } from './proxy.mjs';
import { DEMO_PAYER_KEY, freePlayer, startStack } from './stack.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
/** What the README's config names, to be replaced by the test stack's URL and a key. */
const README_URL = 'http://127.0.0.1:8402';
const README_KEY = '0x…';
const TOOLS = ['arcade_audit', 'arcade_balance', 'arcade_buy_chips', 'arcade_cashout', 'arcade_dice', 'arcade_flip', 'arcade_limbo', 'arcade_roulette', 'arcade_verify'];
/** What a verified round's answer says passed. */
const CHECKS = ['seed matches commitment', 'outcome re-derived', 'commitment signature', 'receipt signature', 'seed-batch inclusion', 'play signature', 'matches your commit'];

let stack;
let proxy;
let dir;
let project;
before(async () => {
  stack = await startStack();
  proxy = await startProxy(stack.baseUrl);
  dir = mkdtempSync(join(tmpdir(), 'arcade-client-mcp-'));
  project = join(dir, 'project');
  mkdirSync(project);
  const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });
  // dist/ is built (pretest): packed as is, not built again.
  const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], here));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'mcp-host', private: true }));
  npm(['install', '--prefer-offline', join(dir, packed.filename)], project);
});
after(async () => {
  await proxy?.stop();
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The README's `mcpServers` block, as written: `{command, args, env}` of its `arcade` server. */
function hostConfig() {
  const readme = readFileSync(join(here, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('"mcpServers"'));
  assert.ok(block, 'the README has a ```json block with "mcpServers"');
  return JSON.parse(block).mcpServers.arcade;
}

/** The README's server with the arcade at `url` and the key `key` (nothing else changed). */
function serverOf(url, key) {
  const { command, args, env } = hostConfig();
  assert.ok(args.includes(README_URL), `the README's args name ${README_URL}`);
  assert.equal(env.ARCADE_PRIVATE_KEY, README_KEY);
  return { command, args: args.map((arg) => (arg === README_URL ? url : arg)), env: { ...env, ARCADE_PRIVATE_KEY: key } };
}

/** An MCP session with the local server, as a host starts it (cwd: the project it is installed in). */
async function launch(url, key) {
  const transport = new StdioClientTransport({ ...serverOf(url, key), cwd: project, stderr: 'pipe' });
  let log = '';
  transport.stderr.on('data', (chunk) => { log += chunk; });
  const client = new Client({ name: 'mcp-local-test', version: '0.0.1' });
  await client.connect(transport);
  return {
    log: () => log,
    close: () => client.close(),
    /** A tool call: `{ok, text, data}` (ok: not isError). A protocol error would throw. */
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      return { ok: result.isError !== true, text: result.content.map((c) => c.text).join('\n'), data: result.structuredContent };
    },
    listTools: () => client.listTools(),
  };
}

const payer = privateKeyToAccount(DEMO_PAYER_KEY);
let mcp;
const played = [];

test('without a key the server refuses to start: nonzero exit, the reason on stderr, nothing on stdout', () => {
  const { command, args } = serverOf(stack.baseUrl, 'unused');
  const run = spawnSync(command, args, { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 30_000 });
  assert.equal(run.status, 2, run.stderr);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /no private key: set ARCADE_PRIVATE_KEY/);
  const keyArg = spawnSync(command, [...args, '--private-key', DEMO_PAYER_KEY], { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 30_000 });
  assert.equal(keyArg.status, 2);
  assert.match(keyArg.stderr, /never taken from an argument/);
  assert.ok(!keyArg.stderr.includes(DEMO_PAYER_KEY.slice(2)), 'the key is not repeated');
  // A key given where a value goes (a flag's value, or the key file variable) is not repeated either.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  for (const [extra, more] of [[['--max-spend', DEMO_PAYER_KEY], {}], [[`--key-file=${DEMO_PAYER_KEY}`], {}], [[], { ARCADE_KEY_FILE: DEMO_PAYER_KEY }]]) {
    const misplaced = spawnSync(command, [...args, ...extra], { cwd: project, encoding: 'utf8', env: { ...env, ...more }, timeout: 30_000 });
    assert.equal(misplaced.status, 2, misplaced.stderr);
    assert.match(misplaced.stderr, /looks like a private key/);
    assert.ok(!misplaced.stderr.includes(DEMO_PAYER_KEY.slice(2)), `the key is not repeated: ${misplaced.stderr}`);
  }
});

test('the README host config, run verbatim: the tools, each with its input and output schema', async () => {
  mcp = await launch(stack.baseUrl, DEMO_PAYER_KEY);
  const { tools } = await mcp.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
  for (const tool of tools) {
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name} declares an outputSchema`);
    assert.equal(typeof tool.annotations?.readOnlyHint, 'boolean', `${tool.name} states its hints`);
  }
  const by = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
  assert.deepEqual(by.arcade_flip.properties.call.enum, ['heads', 'tails']);
  assert.deepEqual(by.arcade_buy_chips.properties.tier.enum, ['micro', 'small', 'medium']);
  assert.equal(by.arcade_roulette.properties.bet.enum.length, 13);
  assert.deepEqual([by.arcade_dice.properties.target.minimum, by.arcade_dice.properties.target.maximum], [1, 99]);
  assert.match(mcp.log(), /serving MCP on stdio: player 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 \(key from ARCADE_PRIVATE_KEY\)/, 'the log is on stderr');
  console.log(`tools: ${tools.map((t) => t.name).join(', ')}`);
});

test('buys micro within the cap; a tier above what is left is a tool error naming the cap and what is left', async () => {
  const bought = await mcp.call('arcade_buy_chips', { tier: 'micro' });
  assert.ok(bought.ok, bought.text);
  assert.equal(bought.data.chips_credited, 100);
  assert.deepEqual(bought.data.spending, { cap: '$0.05', left: '$0.04' });
  console.log(`buy micro: ${bought.text}`);
  const refused = await mcp.call('arcade_buy_chips', { tier: 'small' });
  assert.equal(refused.ok, false);
  assert.match(refused.text, /costs \$0\.10; the spending cap is \$0\.05 \(--max-spend\) and \$0\.04 of it is left/);
  console.log(`buy small: refused: ${refused.text}`);
  assert.equal((await mcp.call('arcade_balance')).data.chips, 100, 'nothing bought by the refusal');
});

test('every game played, each round verified locally before the tool answered', async () => {
  for (const [name, args] of [
    ['arcade_flip', { wager: 1, call: 'heads' }],
    ['arcade_dice', { wager: 1, target: 50, direction: 'over' }],
    ['arcade_roulette', { wager: 1, bet: 'straight', number: 17 }],
    ['arcade_roulette', { wager: 1, bet: 'red' }],
    ['arcade_limbo', { wager: 1, target: '2.00' }],
  ]) {
    const r = await mcp.call(name, args);
    assert.ok(r.ok, r.text);
    assert.equal(r.data.verified, true);
    assert.deepEqual(r.data.checks, CHECKS);
    assert.match(r.text, /\nverified: seed matches commitment, outcome re-derived, commitment signature, receipt signature, seed-batch inclusion, play signature, matches your commit/);
    // The server's first round is committed; each after it, the one the play before opened.
    assert.equal(r.data.chained, played.length > 0, `${name}: chained`);
    played.push(r.data);
    console.log(`${r.data.game} (${JSON.stringify(args)}): bet ${r.data.bet_id} ${r.data.won ? 'won' : 'lost'} ${JSON.stringify(r.data.result)}\n  ${r.text.split('\n')[1]}`);
  }
  assert.deepEqual([...new Set(played.map((r) => r.game))].sort(), ['coinflip', 'dice', 'limbo', 'roulette']);
});

test('malformed calls are tool errors the model can correct, not protocol errors', async () => {
  for (const [name, args, why] of [
    ['arcade_flip', { wager: 1, call: 'edge' }, /call/],
    ['arcade_roulette', { wager: 1, bet: 'straight' }, /a straight bet needs number/],
    ['arcade_dice', { wager: 100000, target: 50 }, /The arcade refused \(400 wager_above_limit\)/],
  ]) {
    const r = await mcp.call(name, args);
    assert.equal(r.ok, false, r.text);
    assert.match(r.text, why);
    console.log(`${name} ${JSON.stringify(args)}: tool error: ${r.text.split('\n')[0]}`);
  }
});

test('verify and audit: the bets just played pass; the address\'s rounds all verified', async () => {
  const v = await mcp.call('arcade_verify', { bet_id: played[0].bet_id });
  assert.ok(v.ok, v.text);
  assert.equal(v.data.verdict, 'pass');
  assert.equal(v.data.receipt.address, payer.address);
  const audit = await mcp.call('arcade_audit');
  assert.ok(audit.ok, audit.text);
  assert.equal(audit.data.rounds, played.length);
  assert.equal(audit.data.verified, played.length);
  assert.deepEqual(audit.data.checks, []);
  console.log(`verify: ${v.text.split('\n')[0]}\naudit: ${audit.text}`);
});

test('cash out: the tokens arrive on chain, balanceOf up by the cashout\'s amount', async () => {
  // A cashout takes at least 100 paid chips; another micro tops the balance up.
  assert.ok((await mcp.call('arcade_buy_chips', { tier: 'micro' })).ok);
  const chain = createPublicClient({ transport: http(stack.chain.rpcUrl) });
  const balanceOf = () => chain.readContract({ address: stack.chain.token, abi: erc20Abi, functionName: 'balanceOf', args: [payer.address] });
  const before = await balanceOf();
  const cashout = await mcp.call('arcade_cashout', { chips: 100 });
  assert.ok(cashout.ok, cashout.text);
  assert.equal(cashout.data.chips, 100);
  const amount = BigInt(cashout.data.amount);
  let now = await balanceOf();
  for (const started = Date.now(); now !== before + amount && Date.now() - started < 30_000; now = await balanceOf()) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.equal(now, before + amount, 'balanceOf rose by the cashout amount');
  console.log(`cashout: ${cashout.text}\non chain: balanceOf(${payer.address}) ${before} → ${now} (+${amount} base units, ${cashout.data.amount_usd})`);
  const balance = await mcp.call('arcade_balance');
  assert.equal(balance.data.chips, cashout.data.balance);
  await mcp.close();
});

const refusals = [];
after(() => {
  console.log('lying house behind the local MCP server: field rewritten → tool error (check)');
  for (const [field, check, text] of refusals) console.log(`  ${field} → isError, "${check}": ${text}`);
});

for (const [field, rewrite, check] of PLAY_LIES) {
  test(`a lying house: ${field} rewritten, refused as a tool error naming ${check}`, async () => {
    const key = generatePrivateKey();
    await freePlayer(stack.baseUrl, key);
    proxy.rewrite = rewrite;
    const liar = await launch(proxy.url, key);
    try {
      const r = await liar.call('arcade_flip', { wager: 1, call: 'heads' });
      assert.equal(r.ok, false, `a lie reported as a round: ${r.text}`);
      assert.equal(r.data, undefined, 'no structured round');
      assert.match(r.text, new RegExp(`^NOT VERIFIED: bet \\d+ failed the check "${check}"`));
      assert.match(r.text, /not reported as a played round/);
      refusals.push([field, check, r.text.split('\n')[0]]);
    } finally {
      proxy.rewrite = null;
      await liar.close();
    }
  });
}

test('a lying house: another signer in a later manifest; the pinned signer holds, verify is a tool error naming signer', async () => {
  const key = generatePrivateKey();
  await freePlayer(stack.baseUrl, key);
  const liar = await launch(proxy.url, key);
  try {
    const round = await liar.call('arcade_flip', { wager: 1, call: 'tails' });
    assert.ok(round.ok, round.text);
    proxy.rewrite = lieAboutSigner;
    const r = await liar.call('arcade_verify', { bet_id: round.data.bet_id });
    assert.equal(r.ok, false, r.text);
    assert.match(r.text, /failed the check "signer"/);
    assert.match(r.text, new RegExp(OTHER_SIGNER, 'i'));
    refusals.push(['the signer in a later manifest', 'signer', r.text.split('\n')[0]]);
    proxy.rewrite = null;
    assert.ok((await liar.call('arcade_verify', { bet_id: round.data.bet_id })).ok, 'the honest manifest: verified');
  } finally {
    proxy.rewrite = null;
    await liar.close();
  }
});
