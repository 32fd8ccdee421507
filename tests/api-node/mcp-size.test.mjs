// /api/mcp's tools/list fits a model's context: the whole result's JSON within 25 KB (what an MCP
// client reads before its first call), every outputSchema and inputSchema a valid JSON Schema
// (checked against the 2020-12 meta-schema, and compiled as the official npm SDK compiles it,
// by ajv), and the structuredContent of real calls, successes and tool errors, valid against
// the tool's outputSchema. Prints the sizes, in all and per tool (`node mcp-size.mjs` too).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { listedTools } from './mcp-size-lib.mjs';
import { startServer } from './server.mjs';

const BUDGET = 25_000;

let server;
let listed;
before(async () => {
  server = await startServer({ command: 'dev' });
  listed = await listedTools(server.baseUrl);
});
after(() => server?.stop());

test('tools/list is at most 25 KB', () => {
  console.log(`tools/list: ${listed.total} bytes of ${BUDGET}`);
  for (const t of listed.tools) {
    console.log(`  ${t.name}: ${t.total} (description ${t.description}, input ${t.input}, output ${t.output})`);
  }
  assert.equal(listed.tools.length, 15);
  assert.ok(listed.total <= BUDGET, `tools/list is ${listed.total} bytes, over ${BUDGET}`);
});

test('every input and output schema is a valid JSON Schema that compiles', () => {
  // strict: unknown keywords, ignored formats and loose types would all throw.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  for (const tool of listed.result.tools) {
    for (const [which, schema] of [['input', tool.inputSchema], ['output', tool.outputSchema]]) {
      assert.equal(ajv.validateSchema(schema), true, `${tool.name} ${which}: ${ajv.errorsText(ajv.errors)}`);
      assert.doesNotThrow(() => ajv.compile(schema), `${tool.name} ${which}`);
      assert.ok(!JSON.stringify(schema).includes('"description":""'), `${tool.name} ${which}`);
    }
    assert.ok(!JSON.stringify(tool.outputSchema).includes('"description"'), `${tool.name}: output descriptions stay in the OpenAPI document`);
  }
});

test("every tool's real results, successes and errors, validate against its outputSchema", async () => {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`));
  const client = new Client({ name: 'arcade-size-test', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const checked = new Set();
  // callTool validates each structured result itself (it throws on a mismatch); checked again
  // here with a 2020-12 validator, and each result's branch counted.
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    const validate = ajv.compile(tools.find((t) => t.name === name).outputSchema);
    assert.equal(validate(result.structuredContent), true,
      `${name}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(result.structuredContent)}`);
    checked.add(`${name}:${result.isError ? 'error' : 'ok'}`);
    return result;
  };
  const ok = async (name, args) => {
    const result = await call(name, args);
    assert.notEqual(result.isError, true, `${name}: ${result.content[0].text}`);
    return result.structuredContent;
  };
  const account = privateKeyToAccount(generatePrivateKey());
  const { address } = account;
  await ok('arcade_free', { address });
  await ok('arcade_games', {});
  await ok('arcade_house', {});
  const { auth_statement: statement } = await ok('arcade_balance', { address });
  const signature = await account.signMessage({ message: statement });
  await ok('arcade_siwx_challenge', { address });
  const seed = () => randomBytes(8).toString('hex');
  for (const [tool, bet] of [
    ['arcade_flip', { call: 'tails' }],
    ['arcade_dice', { target: 40 }],
    ['arcade_roulette', { bet: 'straight', number: 7 }],
    ['arcade_limbo', { target: 3 }],
  ]) {
    const round = await ok('arcade_commit', { address, signature });
    const played = await ok(tool, { round_id: round.round_id, client_seed: seed(), wager: 5, ...bet });
    await ok('arcade_round', { round_id: round.round_id });
    await ok('arcade_verify', { bet_id: played.bet_id });
  }
  const open = await ok('arcade_commit', { address, signature });
  await ok('arcade_round', { round_id: open.round_id });
  // Errors: malformed arguments (the 422's problems), REST refusals, the 402's challenge.
  await call('arcade_flip', { round_id: 'r_x', client_seed: '', wager: 'ten', call: 'edge' });
  await call('arcade_verify', { bet_id: 999999999 });
  await call('arcade_commit', { address });
  await call('arcade_cashout', { address, chips: 100, signature });
  const challenge = await call('arcade_buy_chips', { tier: 'micro' });
  assert.equal(challenge.structuredContent.x402Version, 2);
  await ok('arcade_rotate', { address, signature });
  await call('arcade_rotate', { address, signature });
  for (const tool of tools) assert.ok(checked.has(`${tool.name}:ok`) || checked.has(`${tool.name}:error`), tool.name);
  for (const name of ['arcade_flip', 'arcade_verify', 'arcade_commit', 'arcade_cashout', 'arcade_buy_chips', 'arcade_rotate']) {
    assert.ok(checked.has(`${name}:error`), `${name}: an error result checked`);
  }
  await transport.terminateSession();
  await client.close();
});
