// The arcade's MCP endpoint spoken to by the official TypeScript SDK client (Streamable HTTP,
// sessions): every tool listed, a round played end to end with a viem signature, errors as tool
// results, session teardown, and the Origin check.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from './server.mjs';

const TOOLS = [
  'arcade_balance', 'arcade_buy_chips', 'arcade_cashout', 'arcade_commit', 'arcade_dice', 'arcade_flip',
  'arcade_free', 'arcade_games', 'arcade_house', 'arcade_limbo', 'arcade_rotate', 'arcade_roulette',
  'arcade_round', 'arcade_siwx_challenge', 'arcade_verify',
];

let server;
before(async () => {
  server = await startServer();
});
after(() => server?.stop());

async function connect() {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`));
  const client = new Client({ name: 'arcade-node-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

test('lists the fifteen tools with object schemas that teach how to play', async () => {
  const { client, transport } = await connect();
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.ok(tool.description.length > 40, tool.name);
  }
  const flip = tools.find((t) => t.name === 'arcade_flip');
  assert.deepEqual(Object.keys(flip.inputSchema.properties).sort(),
    ['call', 'client_seed', 'next_round', 'play_signature', 'round_id', 'sign_in_with_x', 'signature', 'wager']);
  for (const name of ['arcade_commit', 'arcade_flip', 'arcade_cashout', 'arcade_rotate']) {
    const proof = tools.find((t) => t.name === name).inputSchema.properties.sign_in_with_x;
    assert.match(proof.description, /SIGN-IN-WITH-X/, name);
  }
  assert.match(flip.inputSchema.properties.client_seed.description, /fresh random/);
  assert.ok(!JSON.stringify(flip.inputSchema).includes('$ref'), 'no $ref in input schemas');
  // What each tool does, as the client reads it: reads only; writes in the arcade (taking away
  // or only adding, a repeat a no-op or not); or sends on the chain.
  const hints = (name) => {
    const a = tools.find((t) => t.name === name).annotations;
    return [a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint];
  };
  for (const name of ['arcade_games', 'arcade_balance', 'arcade_round', 'arcade_verify', 'arcade_house',
    'arcade_siwx_challenge']) {
    assert.deepEqual(hints(name), [true, undefined, undefined, false], name);
  }
  assert.deepEqual(hints('arcade_free'), [false, false, true, false]);
  assert.deepEqual(hints('arcade_commit'), [false, false, false, false]);
  assert.deepEqual(hints('arcade_rotate'), [false, true, false, false]);
  assert.deepEqual(hints('arcade_cashout'), [false, true, false, true]);
  assert.deepEqual(hints('arcade_buy_chips'), [false, true, false, true]);
  for (const game of ['arcade_flip', 'arcade_dice', 'arcade_roulette', 'arcade_limbo']) {
    assert.deepEqual(hints(game), [false, true, true, false], game);
  }
  // Every tool declares its result (or, with isError, the error body) as an outputSchema.
  for (const tool of tools) {
    assert.equal(tool.outputSchema?.type, 'object', tool.name);
    // The result or the error body; a paid tool adds the x402 challenge its 402 answers.
    assert.equal(tool.outputSchema.anyOf.length, tool.name === 'arcade_buy_chips' ? 3 : 2, tool.name);
  }
  await transport.terminateSession();
  await client.close();
});

test("the client validates every result against the tool's outputSchema, and would refuse another", async () => {
  const { client, transport } = await connect();
  const { tools } = await client.listTools();
  const account = privateKeyToAccount(generatePrivateKey());
  // callTool validates each structured result against its tool's schema (it throws otherwise).
  const free = await client.callTool({ name: 'arcade_free', arguments: { address: account.address } });
  const balance = await client.callTool({ name: 'arcade_balance', arguments: { address: account.address } });
  const refused = await client.callTool({ name: 'arcade_commit', arguments: { address: account.address } });
  assert.equal(refused.isError, true);
  // The same validator, on results the server did not send: each fails its schema.
  const validator = new AjvJsonSchemaValidator();
  const check = (name, content) =>
    validator.getValidator(tools.find((t) => t.name === name).outputSchema)(content).valid;
  assert.equal(check('arcade_free', free.structuredContent), true);
  assert.equal(check('arcade_balance', balance.structuredContent), true);
  assert.equal(check('arcade_commit', refused.structuredContent), true);
  assert.equal(check('arcade_free', { ...free.structuredContent, granted: 'a hundred' }), false);
  assert.equal(check('arcade_balance', { chips: 100 }), false);
  assert.equal(check('arcade_commit', { code: 'signature_required' }), false);
  await transport.terminateSession();
  await client.close();
});

test('plays a round of each game through the tools, signed with viem, and verifies it', async () => {
  const { client, transport } = await connect();
  const account = privateKeyToAccount(generatePrivateKey());
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
    assert.equal(typeof result.structuredContent, 'object', name);
    assert.equal(result.content[0].type, 'text', name);
    return result.structuredContent;
  };

  const free = await call('arcade_free', { address: account.address });
  assert.equal(free.granted, 100);
  const games = await call('arcade_games', {});
  assert.equal(games.games.length, 4);
  const balance = await call('arcade_balance', { address: account.address });
  assert.equal(balance.chips, 100);
  const signature = await account.signMessage({ message: balance.auth_statement });

  let chips = 100;
  for (const [tool, bet] of [
    ['arcade_flip', { call: 'heads' }],
    ['arcade_dice', { target: 50, direction: 'over' }],
    ['arcade_roulette', { bet: 'red' }],
    ['arcade_limbo', { target: '2.00' }],
  ]) {
    const round = await call('arcade_commit', { address: account.address, signature });
    assert.match(round.commitment, /^[0-9a-f]{64}$/);
    const played = await call(tool, {
      round_id: round.round_id,
      client_seed: randomBytes(16).toString('hex'),
      wager: 10,
      ...bet,
    });
    assert.equal(played.commitment, round.commitment);
    chips += played.profit;
    assert.equal(played.balance, chips);
    const verified = await call('arcade_verify', { bet_id: played.bet_id });
    // Re-derived; played without a Play signature, so the verdict says a proof is missing.
    assert.deepEqual([verified.verdict, verified.mismatches], ['consistent, not proven', []]);
    assert.match(verified.reason, /Play signature/);
  }
  assert.equal((await call('arcade_balance', { address: account.address })).chips, chips);
  const house = await call('arcade_house', {});
  assert.ok(house.all.rounds >= 4);
  await transport.terminateSession();
  await client.close();
});

test('errors come back as tool results with the REST code and detail', async () => {
  const { client, transport } = await connect();
  const account = privateKeyToAccount(generatePrivateKey());
  const unsigned = await client.callTool({ name: 'arcade_commit', arguments: { address: account.address } });
  assert.equal(unsigned.isError, true);
  assert.equal(unsigned.structuredContent.code, 'signature_required');
  assert.match(unsigned.content[0].text, /^signature_required: /);

  const malformed = await client.callTool({
    name: 'arcade_flip',
    arguments: { round_id: 'r_x', client_seed: 'seed', wager: 'ten', call: 'edge' },
  });
  assert.equal(malformed.isError, true);
  assert.equal(malformed.structuredContent.code, 'validation_error');
  const problems = malformed.structuredContent.detail.map((p) => p.loc.at(-1)).sort();
  assert.deepEqual(problems, ['call', 'wager']);

  const missing = await client.callTool({ name: 'arcade_verify', arguments: { bet_id: 999999 } });
  assert.equal(missing.isError, true);
  assert.equal(missing.structuredContent.code, 'bet_not_found');
  await transport.terminateSession();
  await client.close();
});

test('DELETE ends the session with a 200; its id then gets 404', async () => {
  const { client, transport } = await connect();
  const sessionId = transport.sessionId;
  assert.ok(sessionId);
  // As the SDK's terminateSession sends it; the PyPI client takes only 200 or 204.
  const ended = await fetch(`${server.baseUrl}/api/mcp`, {
    method: 'DELETE',
    headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
  });
  assert.equal(ended.status, 200);
  assert.equal(await ended.text(), '');
  const response = await fetch(`${server.baseUrl}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
  });
  assert.equal(response.status, 404);
  await client.close();
});

test('a browser page from a foreign origin is refused with 403', async () => {
  const response = await fetch(`${server.baseUrl}/api/mcp`, {
    method: 'POST',
    headers: {
      origin: 'https://evil.example',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
    }),
  });
  assert.equal(response.status, 403);
  assert.equal((await response.json()).code, 'origin_forbidden');
  const own = await fetch(`${server.baseUrl}/api/mcp`, {
    method: 'POST',
    headers: {
      origin: server.baseUrl,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
    }),
  });
  assert.equal(own.status, 200, 'the service\'s own origin is allowed');
});
