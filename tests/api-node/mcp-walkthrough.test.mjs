// What an agent with only the official MCP SDK client (and the official x402 core client to pay)
// does with the arcade, step by step, printing each step: it lists the tools, resources,
// templates and prompts; buys chips through `arcade_buy_chips` on the dev chain; calls every
// listed tool, each structured result checked against the tool's outputSchema (by the SDK's own
// validator, which throws on a mismatch, and once more here); reads a receipt resource and
// re-derives it with the wasm build of the fairness core (not the server's word for it).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';

import { startServer } from './server.mjs';

const { verify } = createRequire(import.meta.url)('../../wasm/pkg-node/arcade.js');

// anvil's public test account 1: the dev chain's demo payer.
const DEMO_PAYER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

let server;
before(async () => {
  server = await startServer({ command: 'dev' });
});
after(() => server?.stop());

const step = (text) => console.log(`step: ${text}`);

test('an agent lists, buys, calls every tool with validated results, and verifies a receipt itself', async () => {
  const client = new Client({ name: 'arcade-node-walkthrough', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`));
  await client.connect(transport);

  const { tools } = await client.listTools();
  const { resources } = await client.listResources();
  const { resourceTemplates } = await client.listResourceTemplates();
  const { prompts } = await client.listPrompts();
  step(`list tools (${tools.length}): ${tools.map((t) => t.name).join(', ')}`);
  step(`list resources: ${resources.map((r) => r.uri).join(', ')}`);
  step(`list templates: ${resourceTemplates.map((r) => r.uriTemplate).join(', ')}`);
  step(`list prompts: ${prompts.map((p) => p.name).join(', ')}`);
  assert.ok(resources.some((r) => r.uri === 'arcade://rules'));
  assert.ok(resourceTemplates.some((r) => r.uriTemplate === 'arcade://bets/{bet_id}'));
  assert.ok(prompts.length >= 2);

  const validator = new AjvJsonSchemaValidator();
  const called = new Set();
  const call = async (name, args, meta) => {
    const result = await client.callTool({ name, arguments: args, ...(meta && { _meta: meta }) });
    const schema = tools.find((t) => t.name === name).outputSchema;
    assert.equal(validator.getValidator(schema)(result.structuredContent).valid, true, name);
    called.add(name);
    const said = result.isError ? `error ${result.structuredContent.code ?? result.structuredContent.error}` : 'ok';
    step(`call ${name}: ${said}, structuredContent valid against its outputSchema`);
    return result;
  };
  const ok = async (name, args, meta) => {
    const result = await call(name, args, meta);
    assert.notEqual(result.isError, true, `${name}: ${result.content[0].text}`);
    return result.structuredContent;
  };

  // Buy: the PaymentRequired, then the payment in _meta["x402/payment"].
  const account = privateKeyToAccount(DEMO_PAYER_KEY);
  const address = account.address;
  const required = (await call('arcade_buy_chips', { tier: 'small' })).structuredContent;
  const [offer] = required.accepts;
  step(`402 seen: ${offer.amount} base units of ${offer.asset} to ${offer.payTo} on ${offer.network}`);
  const payer = new x402Client().register('eip155:*', new ExactEvmScheme(account));
  payer.setSpendControls({ allowedAssets: [{ network: offer.network, asset: offer.asset }] });
  const payment = await payer.createPaymentPayload(required);
  const paid = await call('arcade_buy_chips', { tier: 'small' }, { 'x402/payment': payment });
  const settlement = paid._meta['x402/payment-response'];
  assert.equal(settlement.success, true);
  step(`bought ${paid.structuredContent.chips_credited} chips in ${settlement.transaction}`);

  await ok('arcade_games', {});
  await call('arcade_free', { address });
  const { auth_statement: statement } = await ok('arcade_balance', { address });
  const signature = await account.signMessage({ message: statement });
  await ok('arcade_siwx_challenge', { address });
  await ok('arcade_house', {});

  let last;
  for (const [tool, bet] of [
    ['arcade_flip', { call: 'heads' }],
    ['arcade_dice', { target: 50, direction: 'over' }],
    ['arcade_roulette', { bet: 'red' }],
    ['arcade_limbo', { target: '2.00' }],
  ]) {
    const round = await ok('arcade_commit', { address, signature });
    await ok('arcade_round', { round_id: round.round_id });
    last = await ok(tool, { round_id: round.round_id, client_seed: randomBytes(16).toString('hex'), wager: 10, ...bet });
    await ok('arcade_verify', { bet_id: last.bet_id });
  }

  // The receipt resource, re-derived here: the fairness core in wasm, not the server's verdict.
  const receiptText = (await client.readResource({ uri: `arcade://bets/${last.bet_id}` })).contents[0].text;
  const receipt = JSON.parse(receiptText);
  const derived = verify(receipt);
  assert.equal(derived.verified, true, JSON.stringify(derived.mismatches));
  step(`read arcade://bets/${last.bet_id} and re-derived it with the wasm core: verified, outcome ${JSON.stringify(receipt.result)}`);
  const lie = verify({ ...receipt, payout: receipt.payout + 1 });
  assert.equal(lie.verified, false, 'a receipt with another payout does not verify');

  const cashout = await ok('arcade_cashout', { address, chips: 500, signature });
  step(`cashed out 500 chips: ${cashout.status}`);
  await ok('arcade_rotate', { address, signature });

  assert.deepEqual([...called].sort(), tools.map((t) => t.name).sort(), 'every listed tool was called');
  await transport.terminateSession();
  await client.close();
});
