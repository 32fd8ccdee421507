// Chips bought inside MCP: the official MCP SDK client calls `arcade_buy_chips`, and the payment
// is made by the official x402 core client (@x402/core + @x402/evm), carried as the x402 MCP
// transport says (`_meta["x402/payment"]`), on the dev chain `arcade dev` starts. The x402
// packages publish no MCP client on npm, so the transport's two steps are done here by hand.
// The payment-identifier cases use @x402/extensions' own helpers; the challenge's bazaar MCP-tool
// form is the shape `declareDiscoveryExtension({ toolName, … })` makes, valid for its validators.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import {
  declareDiscoveryExtension,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
} from '@x402/extensions/bazaar';
import {
  PAYMENT_IDENTIFIER,
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  isPaymentIdentifierRequired,
  isValidPaymentId,
} from '@x402/extensions/payment-identifier';
import { createPublicClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { startServer } from './server.mjs';

// anvil's public test account 1: the dev chain's demo payer.
const DEMO_PAYER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

let server;
let chain;
before(async () => {
  server = await startServer({ command: 'dev' });
  chain = createPublicClient({ transport: http(server.chain.rpcUrl) });
});
after(() => server?.stop());

async function connect() {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`));
  const client = new Client({ name: 'arcade-node-buyer', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function payer() {
  const manifest = await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json();
  const account = privateKeyToAccount(DEMO_PAYER_KEY);
  const x402 = new x402Client().register('eip155:*', new ExactEvmScheme(account));
  x402.setSpendControls({ allowedAssets: [{ network: manifest.network, asset: manifest.asset }] });
  return { account, x402, manifest };
}

// Step 1 of the transport: the tool without payment answers the PaymentRequired.
async function paymentRequired(client, tier) {
  const result = await client.callTool({ name: 'arcade_buy_chips', arguments: { tier } });
  assert.equal(result.isError, true);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  assert.equal(result.structuredContent.x402Version, 2);
  assert.equal(result._meta?.['x402/payment-response'], undefined, 'no payment, no settlement');
  return result.structuredContent;
}

// Step 2: the payment payload in `_meta["x402/payment"]`.
const buy = (client, tier, payment) =>
  client.callTool({ name: 'arcade_buy_chips', arguments: { tier }, _meta: { 'x402/payment': payment } });

const chipsOf = async (address) =>
  (await (await fetch(`${server.baseUrl}/api/arcade/balance/${address}`)).json()).chips;

test('the official MCP client buys chips with a payment from the official x402 client', async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === 'arcade_buy_chips');
  assert.deepEqual(tool.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
  assert.ok(tool.outputSchema.anyOf.length >= 3);

  const { account, x402, manifest } = await payer();
  const required = await paymentRequired(client, 'small');
  console.log(`step 1: isError with PaymentRequired, ${required.accepts[0].amount} base units to ${required.accepts[0].payTo}`);
  const before = await chain.readContract({ address: manifest.asset, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] });
  const payment = await x402.createPaymentPayload(required);
  const result = await buy(client, 'small', payment);
  assert.notEqual(result.isError, true, JSON.stringify(result));
  const purchase = result.structuredContent;
  const settlement = result._meta['x402/payment-response'];
  console.log(`step 2: ${result.content[0].text} settlement ${JSON.stringify(settlement)}`);
  assert.equal(purchase.address, account.address);
  assert.equal(purchase.chips_credited, 1000);
  assert.deepEqual(settlement, { success: true, payer: account.address, transaction: purchase.tx_hash, network: manifest.network });
  const receipt = await chain.getTransactionReceipt({ hash: purchase.tx_hash });
  assert.equal(receipt.status, 'success');
  const afterBalance = await chain.readContract({ address: manifest.asset, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] });
  assert.equal(afterBalance, before - 100_000n);

  // The same payment again is a replay: refused, the PaymentRequired with its reason, and the
  // failed settlement as REST's PAYMENT-RESPONSE carries it.
  const replay = await buy(client, 'small', payment);
  assert.equal(replay.isError, true);
  assert.equal(replay.structuredContent.error, 'invalid_exact_evm_nonce_already_used');
  assert.deepEqual(replay._meta['x402/payment-response'], {
    success: false, errorReason: 'invalid_exact_evm_nonce_already_used', payer: account.address,
    transaction: purchase.tx_hash, network: manifest.network,
  });
  console.log(`replay: ${replay.structuredContent.code} ${JSON.stringify(replay._meta['x402/payment-response'])}`);
  await client.close();
});

test('the challenge declares the tool in bazaar\'s MCP form, as the official helper does', async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === 'arcade_buy_chips');
  const { bazaar } = (await paymentRequired(client, 'medium')).extensions;
  for (const check of [validateDiscoveryExtension(bazaar), validateDiscoveryExtensionSpec(bazaar)]) {
    assert.deepEqual(check, { valid: true });
  }
  const declared = declareDiscoveryExtension({
    toolName: tool.name,
    description: bazaar.info.input.description,
    transport: 'streamable-http',
    inputSchema: tool.inputSchema,
    example: { tier: 'medium' },
    output: { example: bazaar.info.output.example, schema: bazaar.schema.properties.output.properties.example },
  }).bazaar;
  assert.deepEqual(bazaar, declared);
  assert.equal(bazaar.info.output.example.chips_credited, 10000);
  console.log(`bazaar: ${bazaar.info.input.type} tool ${bazaar.info.input.toolName} over ${bazaar.info.input.transport}, valid for both validators`);
  await client.close();
});

test('payment-identifier with the official helpers: a retry answers the original, another payment is a 409, a bad id a 400', async () => {
  const client = await connect();
  const { account, x402 } = await payer();
  const required = await paymentRequired(client, 'micro');
  const declared = required.extensions[PAYMENT_IDENTIFIER];
  assert.equal(isPaymentIdentifierRequired(declared), false);
  const id = generatePaymentId();
  assert.ok(isValidPaymentId(id));
  const identified = async () => {
    const payment = await x402.createPaymentPayload(required);
    const extensions = structuredClone(required.extensions);
    appendPaymentIdentifierToExtensions(extensions, id);
    return { ...payment, extensions };
  };
  const chipsBefore = await chipsOf(account.address);
  const payment = await identified();
  const first = await buy(client, 'micro', payment);
  const again = await buy(client, 'micro', payment);
  assert.notEqual(first.isError, true, JSON.stringify(first));
  assert.deepEqual(again.structuredContent, first.structuredContent);
  assert.deepEqual(again._meta, first._meta);
  assert.equal(await chipsOf(account.address), chipsBefore + 100, 'credited once');
  console.log(`same id ${id}, same payment: the original answer (payment ${first.structuredContent.payment_id}), credited once`);

  const conflict = await buy(client, 'micro', await identified());
  assert.equal(conflict.isError, true);
  assert.equal(conflict.structuredContent.code, 'payment_identifier_conflict');
  console.log(`same id, another payment: ${conflict.content[0].text}`);

  // REST answers the same with statuses: 409 and 400.
  const url = `${server.baseUrl}/api/arcade/chips/micro`;
  const header = (p) => ({ 'PAYMENT-SIGNATURE': Buffer.from(JSON.stringify(p)).toString('base64') });
  const rest409 = await fetch(url, { method: 'POST', headers: header(await identified()) });
  assert.equal(rest409.status, 409);
  const bad = 'pay_not valid!';
  assert.equal(isValidPaymentId(bad), false);
  assert.throws(() => appendPaymentIdentifierToExtensions(structuredClone(required.extensions), bad));
  const malformed = await x402.createPaymentPayload(required);
  malformed.extensions = structuredClone(required.extensions);
  malformed.extensions[PAYMENT_IDENTIFIER].info.id = bad;
  const rest400 = await fetch(url, { method: 'POST', headers: header(malformed) });
  assert.equal(rest400.status, 400);
  assert.equal((await rest400.json()).code, 'payment_identifier_invalid');
  const mcp400 = await buy(client, 'micro', malformed);
  assert.equal(mcp400.structuredContent.code, 'payment_identifier_invalid');
  console.log(`REST: another payment ${rest409.status}, malformed id ${rest400.status}; MCP: ${mcp400.structuredContent.code}`);
  assert.equal(await chipsOf(account.address), chipsBefore + 100);
  await client.close();
});
