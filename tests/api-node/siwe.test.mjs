// The auth statement read by viem's own EIP-4361 (Sign-In with Ethereum) parser, and the
// revocation flow end to end with viem signatures: sign, play, rotate, the old signature
// refused as revoked, the new one working; over REST and through the official MCP client.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { verifyMessage } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe';

import { startServer } from './server.mjs';

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

async function call(method, path, body) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

test('the statement is a Sign-In with Ethereum message for this deployment', async () => {
  const player = privateKeyToAccount(generatePrivateKey());
  const { body: auth } = await call('GET', `/api/arcade/auth-statement/${player.address}`);
  assert.equal(auth.format, 'eip4361');
  assert.equal(auth.scheme, 'eip191');
  assert.equal(auth.generation, 0);
  const message = parseSiweMessage(auth.statement);
  const url = new URL(server.baseUrl);
  assert.equal(message.domain, url.host);
  assert.equal(message.address, player.address);
  assert.equal(message.uri, server.baseUrl);
  assert.equal(message.version, '1');
  assert.equal(message.chainId, 84532);
  assert.match(message.statement, /authorizes no payment/);
  assert.ok(message.issuedAt instanceof Date && !Number.isNaN(message.issuedAt.getTime()));
  assert.ok(validateSiweMessage({ message, domain: url.host, address: player.address }));
  // viem writes back exactly the text the server asks to sign: no field is lost or odd.
  assert.equal(createSiweMessage(message), auth.statement);

  const signature = await player.signMessage({ message: auth.statement });
  assert.ok(await verifyMessage({ address: player.address, message: auth.statement, signature }));
  const { body: again } = await call('GET', `/api/arcade/auth-statement/${player.address.toLowerCase()}`);
  assert.equal(again.statement, auth.statement, 'stable: sign once');
});

test('rotating revokes the old signature; the new statement works (REST)', async () => {
  const player = privateKeyToAccount(generatePrivateKey());
  const address = player.address;
  const { body: auth } = await call('GET', `/api/arcade/auth-statement/${address}`);
  const first = await player.signMessage({ message: auth.statement });
  assert.equal((await call('POST', '/api/arcade/free', { address, signature: first })).status, 200);
  const committed = await call('POST', '/api/arcade/commit', { address, signature: first });
  const played = await call('POST', '/api/arcade/flip', {
    round_id: committed.body.round_id, client_seed: 'before', wager: 5, call: 'heads', signature: first,
  });
  assert.equal(played.status, 200, JSON.stringify(played.body));

  const rotated = await call('POST', '/api/arcade/auth/rotate', { address, signature: first });
  assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
  const next = rotated.body.auth_statement;
  assert.equal(next.generation, 1);
  const parsed = parseSiweMessage(next.statement);
  assert.notEqual(parsed.nonce, parseSiweMessage(auth.statement).nonce);
  assert.ok(validateSiweMessage({ message: parsed, address }));

  const refused = await call('POST', '/api/arcade/commit', { address, signature: first });
  assert.equal(refused.status, 401);
  assert.equal(refused.body.code, 'signature_revoked');

  const second = await player.signMessage({ message: next.statement });
  const again = await call('POST', '/api/arcade/commit', { address, signature: second });
  assert.equal(again.status, 200, JSON.stringify(again.body));
  const replayed = await call('POST', '/api/arcade/flip', {
    round_id: again.body.round_id, client_seed: 'after', wager: 5, call: 'tails', signature: second,
  });
  assert.equal(replayed.status, 200, JSON.stringify(replayed.body));
});

test('rotating revokes the old signature; the new statement works (MCP)', async () => {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`));
  const client = new Client({ name: 'arcade-node-siwe', version: '1.0.0' });
  await client.connect(transport);
  const tool = async (name, args) => client.callTool({ name, arguments: args });
  const player = privateKeyToAccount(generatePrivateKey());
  const address = player.address;

  const balance = (await tool('arcade_balance', { address })).structuredContent;
  assert.equal(balance.auth_generation, 0);
  assert.equal(parseSiweMessage(balance.auth_statement).address, address);
  const first = await player.signMessage({ message: balance.auth_statement });
  assert.notEqual((await tool('arcade_free', { address })).isError, true);
  const round = (await tool('arcade_commit', { address, signature: first })).structuredContent;
  const played = await tool('arcade_dice', {
    round_id: round.round_id, client_seed: 'mcp', wager: 5, target: 50, signature: first,
  });
  assert.notEqual(played.isError, true, JSON.stringify(played.content));

  const rotated = await tool('arcade_rotate', { address, signature: first });
  assert.notEqual(rotated.isError, true, JSON.stringify(rotated.content));
  const refused = await tool('arcade_commit', { address, signature: first });
  assert.equal(refused.isError, true);
  assert.equal(refused.structuredContent.code, 'signature_revoked');
  const second = await player.signMessage({ message: rotated.structuredContent.auth_statement.statement });
  const again = await tool('arcade_commit', { address, signature: second });
  assert.notEqual(again.isError, true, JSON.stringify(again.content));

  await transport.terminateSession();
  await client.close();
});
