// The arcade's MCP resources, templates, prompts and completions, read by the official
// TypeScript SDK client (1.32, which initializes with 2025-11-25), and the older revisions
// 2025-03-26 and 2025-06-18 still served to a client that asks for them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from './server.mjs';

let server;
before(async () => {
  server = await startServer();
});
after(() => server?.stop());

// The SDK 1.32 client always offers its newest revision in `initialize`; to be an older
// client, its transport rewrites that one field and the client then speaks what the server
// answers (the SDK sets `MCP-Protocol-Version` from the answer).
async function connect(pinned) {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`));
  if (pinned) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(message.method === 'initialize'
      ? { ...message, params: { ...message.params, protocolVersion: pinned } }
      : message, options);
  }
  const client = new Client({ name: 'arcade-node-resources', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, done: async () => { await transport.terminateSession(); await client.close(); } };
}

const rest = async (path) => (await fetch(`${server.baseUrl}${path}`)).text();
const text = async (client, uri) => (await client.readResource({ uri })).contents[0].text;
const refusal = async (promise) => promise.then(() => assert.fail('expected an MCP error'), (e) => e);

test('negotiates 2025-11-25 and advertises resources, prompts and completions', async () => {
  const { client, transport, done } = await connect();
  assert.equal(transport.protocolVersion, '2025-11-25');
  const capabilities = client.getServerCapabilities();
  for (const capability of ['tools', 'resources', 'prompts', 'completions']) {
    assert.ok(capabilities[capability], capability);
  }
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.uri), ['arcade://rules', 'arcade://seed-batches']);
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate),
    ['arcade://bets/{bet_id}', 'arcade://rounds/{round_id}', 'arcade://seed-batches/{batch_id}', 'arcade://seed-batches/{batch_id}/rows/{index}']);
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name), ['play_and_verify', 'audit_address']);
  await done();
});

test('arcade://rules is /rules.md followed by the live limits and the free-chip rule', async () => {
  const { client, done } = await connect();
  const { contents } = await client.readResource({ uri: 'arcade://rules' });
  assert.equal(contents[0].mimeType, 'text/markdown');
  const rules = contents[0].text;
  assert.ok(rules.startsWith(await rest('/rules.md')));
  const { limits } = JSON.parse(await rest('/api/arcade/games'));
  assert.match(rules, new RegExp(`\\| largest wager \\| ${limits.max_wager_chips} \\|`));
  assert.match(rules, new RegExp(`\\| largest profit one round may pay \\| ${limits.max_payout_chips} \\|`));
  assert.match(rules, new RegExp(`claim ${limits.free_chips} free chips once`));
  await done();
});

test("a round read by its id as REST reads it, the receipt that verifies, and a missing bet's error code", async () => {
  const { client, done } = await connect();
  const account = privateKeyToAccount(generatePrivateKey());
  const call = async (name, args) => (await client.callTool({ name, arguments: args })).structuredContent;
  await call('arcade_free', { address: account.address });
  const { auth_statement } = await call('arcade_balance', { address: account.address });
  const signature = await account.signMessage({ message: auth_statement });
  const { round_id, commitment } = await call('arcade_commit', { address: account.address, signature });

  // The owner holds the round id and reads the open round: REST's answer, byte for byte.
  const open = await text(client, `arcade://rounds/${round_id}`);
  assert.equal(open, await rest(`/api/arcade/rounds/${round_id}`));
  assert.equal(JSON.parse(open).state, 'open');
  assert.equal(JSON.parse(open).commitment, commitment);
  // Anyone else has no id to read it by: the seed batches never show an open round's id, and
  // any other id is refused with REST's code.
  const batches = JSON.parse(await text(client, 'arcade://seed-batches'));
  const shown = [];
  for (const { batch_id } of batches) {
    const batch = JSON.parse(await text(client, `arcade://seed-batches/${batch_id}`));
    shown.push(...batch.rounds.filter((r) => r.commitment === commitment));
  }
  assert.deepEqual(shown.map((r) => [r.state, r.round_id]), [['open', null]]);
  const stranger = await refusal(client.readResource({ uri: `arcade://rounds/r_${randomBytes(16).toString('hex')}` }));
  assert.equal(stranger.code, -32002);
  assert.equal(stranger.data.code, 'round_not_found');

  const played = await call('arcade_dice', {
    round_id, wager: 5, target: 50, direction: 'over', client_seed: randomBytes(16).toString('hex'),
  });
  const receipt = await text(client, `arcade://bets/${played.bet_id}`);
  assert.equal(receipt, await rest(`/api/arcade/verify/${played.bet_id}`));
  assert.deepEqual([JSON.parse(receipt).verdict, JSON.parse(receipt).mismatches], ['consistent, not proven', []]);
  assert.equal(JSON.parse(await text(client, `arcade://rounds/${round_id}`)).receipt.bet_id, played.bet_id);
  // The round's seed row: REST's answer, the round's commitment and seed, its batch's signed root.
  const { batch_id: batchId, index } = JSON.parse(receipt).proofs.batch;
  const row = await text(client, `arcade://seed-batches/${batchId}/rows/${index}`);
  assert.equal(row, await rest(`/api/arcade/seed-batches/${batchId}/rows/${index}`));
  assert.deepEqual([JSON.parse(row).row.bet_id, JSON.parse(row).row.server_seed], [played.bet_id, JSON.parse(receipt).server_seed]);
  assert.equal(JSON.parse(row).batch.merkle_root, batches.find((b) => b.batch_id === batchId).merkle_root);
  const noRow = await refusal(client.readResource({ uri: `arcade://seed-batches/${batchId}/rows/${index + 5}` }));
  assert.equal(noRow.code, -32002);
  assert.equal(noRow.data.code, 'seed_row_not_found');

  const missing = await refusal(client.readResource({ uri: 'arcade://bets/999999' }));
  assert.equal(missing.code, -32002);
  assert.equal(missing.data.code, 'bet_not_found');
  const malformed = await refusal(client.readResource({ uri: 'arcade://bets/ten' }));
  assert.equal(malformed.code, -32602);
  assert.equal(malformed.data.code, 'validation_error');
  const unknown = await refusal(client.readResource({ uri: 'arcade://nothing' }));
  assert.equal(unknown.code, -32002);

  // Completion offers the bet just settled, and the seed batches.
  const bets = await client.complete({ ref: { type: 'ref/resource', uri: 'arcade://bets/{bet_id}' },
    argument: { name: 'bet_id', value: String(played.bet_id) } });
  assert.ok(bets.completion.values.includes(String(played.bet_id)));
  const ids = await client.complete({ ref: { type: 'ref/resource', uri: 'arcade://seed-batches/{batch_id}' },
    argument: { name: 'batch_id', value: '' } });
  assert.deepEqual(ids.completion.values.map(Number).sort((a, b) => a - b), batches.map((b) => b.batch_id));
  const rounds = await client.complete({ ref: { type: 'ref/resource', uri: 'arcade://rounds/{round_id}' },
    argument: { name: 'round_id', value: 'r_' } });
  assert.deepEqual(rounds.completion.values, [], 'round ids are never offered');
  await done();
});

test('the prompts name the real tools and resources, and refuse bad arguments', async () => {
  const { client, done } = await connect();
  const account = privateKeyToAccount(generatePrivateKey());
  const play = await client.getPrompt({ name: 'play_and_verify', arguments: { game: 'dice', wager: '5' } });
  const playText = play.messages[0].content.text;
  for (const name of ['arcade_balance', 'arcade_commit', 'arcade_dice', 'arcade://bets/', 'arcade://rules']) {
    assert.ok(playText.includes(name), name);
  }
  const audit = await client.getPrompt({ name: 'audit_address', arguments: { address: account.address.toLowerCase() } });
  const auditText = audit.messages[0].content.text;
  assert.ok(auditText.includes(account.address), 'the address, checksummed');
  for (const name of ['arcade_verify', 'arcade://seed-batches/', '/api/arcade/receipts']) {
    assert.ok(auditText.includes(name), name);
  }
  const badGame = await refusal(client.getPrompt({ name: 'play_and_verify', arguments: { game: 'poker', wager: '5' } }));
  assert.equal(badGame.code, -32602);
  const badAddress = await refusal(client.getPrompt({ name: 'audit_address', arguments: { address: '0x12' } }));
  assert.equal(badAddress.data.code, 'validation_error');
  const games = await client.complete({ ref: { type: 'ref/prompt', name: 'play_and_verify' },
    argument: { name: 'game', value: 'd' } });
  assert.deepEqual(games.completion.values, ['dice']);
  await done();
});

for (const revision of ['2025-03-26', '2025-06-18']) {
  test(`a client of ${revision} gets that revision and is served tools, resources and prompts`, async () => {
    const { client, transport, done } = await connect(revision);
    assert.equal(transport.protocolVersion, revision);
    const games = await client.callTool({ name: 'arcade_games', arguments: {} });
    assert.equal(games.structuredContent.games.length, 4);
    assert.ok((await text(client, 'arcade://rules')).includes('## Free chips'));
    assert.equal((await client.listPrompts()).prompts.length, 2);
    await done();
  });
}
