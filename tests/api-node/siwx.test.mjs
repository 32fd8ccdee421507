// Sign-in-with-x with the official `@x402/extensions` helpers: a viem account signs the
// server's challenge (`createSIWxPayload`, `encodeSIWxHeader`) and commits, plays, rotates and
// cashes out (on the dev chain `arcade dev` starts, chips bought with `@x402/fetch`) with the
// `SIGN-IN-WITH-X` header alone; every attack is refused with the code a bad statement signature
// gets, and leaves the balance as it was. Over MCP (the official SDK client) the same proof is
// the tool argument `sign_in_with_x`, the challenge the tool `arcade_siwx_challenge`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { createPublicClient, erc20Abi, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  SIGN_IN_WITH_X, createSIWxPayload, encodeSIWxHeader, parseSIWxHeader, verifySIWxSignature,
} from '@x402/extensions/sign-in-with-x';
import { startServer } from './server.mjs';

let server;
before(async () => { server = await startServer({ command: 'dev' }); });
after(async () => { await server?.stop(); });

async function call(method, path, body, headers = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** The server's challenge for `address`, completed with its first chain as the client does. */
async function challenge(address) {
  const { status, body } = await call('GET', `/api/arcade/siwx/${address}`);
  assert.equal(status, 200, JSON.stringify(body));
  const [chain] = body.supportedChains;
  return { ...body.info, chainId: chain.chainId, type: chain.type };
}

async function signIn(account, change = (info) => info) {
  const info = change(await challenge(account.address));
  const payload = await createSIWxPayload(info, account, server.baseUrl);
  return { [SIGN_IN_WITH_X]: encodeSIWxHeader(payload) };
}

async function newPlayer() {
  const account = privateKeyToAccount(generatePrivateKey());
  const statement = (await call('GET', `/api/arcade/auth-statement/${account.address}`)).body.statement;
  const signature = await account.signMessage({ message: statement });
  assert.equal((await call('POST', '/api/arcade/free', { address: account.address, signature })).status, 200);
  return account;
}

const balance = async (address) => (await call('GET', `/api/arcade/balance/${address}`)).body;

async function refused(account, headers, status, code, body = { address: account.address }) {
  const before = await balance(account.address);
  const answer = await call('POST', '/api/arcade/commit', body, headers);
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.code, code, JSON.stringify(answer.body));
  assert.deepEqual(await balance(account.address), before, 'nothing moved');
}

test('the official helpers sign the challenge; commit and play with the header alone', async () => {
  const player = await newPlayer();
  const headers = await signIn(player);
  const payload = parseSIWxHeader(headers[SIGN_IN_WITH_X]);
  assert.equal((await verifySIWxSignature(payload)).isValid, true, 'the official verifier agrees');
  console.log('SIWX payload', JSON.stringify({ ...payload, signature: `${payload.signature.slice(0, 12)}…` }));
  const committed = await call('POST', '/api/arcade/commit', { address: player.address }, headers);
  assert.equal(committed.status, 200, JSON.stringify(committed.body));
  const played = await call('POST', '/api/arcade/flip', {
    round_id: committed.body.round_id, client_seed: 'siwx', wager: 10, call: 'heads',
  }, headers);
  assert.equal(played.status, 200, JSON.stringify(played.body));
  assert.equal(played.body.balance, 100 + played.body.profit);
});

test('the 402 and the manifest advertise sign-in-with-x in the helpers’ shape', async () => {
  const manifest = (await call('GET', '/api/arcade/manifest')).body;
  assert.equal(manifest.sign_in_with_x.header, 'SIGN-IN-WITH-X');
  assert.match(manifest.sign_in_with_x.challenge, /^GET https?:\/\/.+\/api\/arcade\/siwx\/\{address\}$/);
  assert.deepEqual(manifest.sign_in_with_x.supported_chains.map((c) => c.type), ['eip191']);
  const declaration = (await call('GET', `/api/arcade/siwx/${privateKeyToAccount(generatePrivateKey()).address}`)).body;
  for (const field of ['domain', 'uri', 'version', 'nonce', 'issuedAt', 'expirationTime', 'resources']) {
    assert.ok(declaration.info[field], field);
  }
  assert.equal(declaration.info.nonce.length, 32);
  assert.ok(declaration.schema.required.includes('signature'));
});

test('attacks are refused as a bad statement signature is, and move nothing', async () => {
  const player = await newPlayer();
  const stranger = await newPlayer();
  const strangers = await signIn(stranger);
  await refused(player, strangers, 403, 'signature_mismatch');
  const other = new URL(server.baseUrl);
  other.hostname = 'localhost';
  const foreign = await createSIWxPayload({ ...(await challenge(player.address)), domain: other.host, uri: other.origin }, player, other.origin);
  await refused(player, { [SIGN_IN_WITH_X]: encodeSIWxHeader(foreign) }, 403, 'signature_mismatch');
  const wrongUri = await createSIWxPayload({ ...(await challenge(player.address)), uri: `${server.baseUrl}.evil` }, player, server.baseUrl).catch(() => null);
  if (wrongUri) await refused(player, { [SIGN_IN_WITH_X]: encodeSIWxHeader(wrongUri) }, 403, 'signature_mismatch');
  await refused(player, await signIn(player, (i) => ({ ...i, chainId: 'eip155:1' })), 403, 'signature_mismatch');
  const past = new Date(Date.now() - 3_600_000).toISOString();
  await refused(player, await signIn(player, (i) => ({ ...i, issuedAt: past, expirationTime: new Date(Date.now() - 3_000_000).toISOString() })), 401, 'signature_revoked');
  const future = new Date(Date.now() + 3_600_000).toISOString();
  await refused(player, await signIn(player, (i) => ({ ...i, issuedAt: future })), 401, 'signature_revoked');
  await refused(player, await signIn(player, (i) => ({ ...i, nonce: '0'.repeat(32) })), 403, 'signature_mismatch');
  await refused(player, { [SIGN_IN_WITH_X]: 'not base64!' }, 401, 'signature_invalid');
  await refused(player, { [SIGN_IN_WITH_X]: btoa('{"domain":"x"}') }, 401, 'signature_invalid');
  const both = await signIn(player);
  const statement = (await call('GET', `/api/arcade/auth-statement/${player.address}`)).body.statement;
  const wrongSignature = await stranger.signMessage({ message: statement });
  await refused(player, both, 403, 'signature_mismatch', { address: player.address, signature: wrongSignature });
});

test('a header for one address on a round of another is refused', async () => {
  const owner = await newPlayer();
  const stranger = await newPlayer();
  const committed = await call('POST', '/api/arcade/commit', { address: owner.address }, await signIn(owner));
  assert.equal(committed.status, 200);
  const before = await balance(owner.address);
  const played = await call('POST', '/api/arcade/flip', {
    round_id: committed.body.round_id, client_seed: 'thief', wager: 10, call: 'heads',
  }, await signIn(stranger));
  assert.equal(played.status, 403, JSON.stringify(played.body));
  assert.equal(played.body.code, 'round_not_yours');
  assert.deepEqual(await balance(owner.address), before);
});

test('rotating with the header revokes every proof issued before it', async () => {
  const player = await newPlayer();
  const old = await signIn(player);
  const rotated = await call('POST', '/api/arcade/auth/rotate', { address: player.address }, await signIn(player));
  assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
  assert.equal(rotated.body.auth_statement.generation, 1);
  await refused(player, old, 401, 'signature_revoked');
  const fresh = await call('POST', '/api/arcade/commit', { address: player.address }, await signIn(player));
  assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
});

// anvil's public test account 1: the dev chain's demo payer.
const DEMO_PAYER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

/** The demo payer, holding the 1000 chips the official x402 client bought for it. */
async function buyer(manifest) {
  const account = privateKeyToAccount(DEMO_PAYER_KEY);
  const client = new x402Client().register('eip155:*', new ExactEvmScheme(account));
  client.setSpendControls({ allowedAssets: [{ network: manifest.network, asset: manifest.asset }] });
  const bought = await wrapFetchWithPayment(fetch, client)(`${server.baseUrl}/api/arcade/chips/small`, { method: 'POST' });
  assert.equal(bought.status, 200, await bought.text());
  return account;
}

test('a cashout proven by the header alone pays the proven address on-chain; a refused one moves nothing', async () => {
  const manifest = (await call('GET', '/api/arcade/manifest')).body;
  const chain = createPublicClient({ transport: http(server.chain.rpcUrl) });
  const tokens = (owner) => chain.readContract({ address: manifest.asset, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
  const player = await buyer(manifest);
  const stranger = privateKeyToAccount(generatePrivateKey());
  const before = { chips: (await balance(player.address)).chips, tokens: await tokens(player.address) };

  const attempts = [await signIn(stranger), await signIn(player, (i) => ({ ...i, chainId: 'eip155:1' }))];
  for (const headers of attempts) {
    const refusal = await call('POST', '/api/arcade/cashout', { address: player.address, chips: 300 }, headers);
    assert.equal(refusal.status, 403, JSON.stringify(refusal.body));
    assert.equal(refusal.body.code, 'signature_mismatch');
  }
  assert.equal((await balance(player.address)).chips, before.chips, 'no chip moved');
  assert.equal(await tokens(player.address), before.tokens, 'no token moved');

  const cashout = await call('POST', '/api/arcade/cashout', { address: player.address, chips: 300 }, await signIn(player));
  assert.equal(cashout.status, 200, JSON.stringify(cashout.body));
  assert.equal(cashout.body.status, 'confirmed');
  assert.equal(cashout.body.address, player.address);
  assert.equal(cashout.body.balance, before.chips - 300);
  assert.equal(await tokens(player.address), before.tokens + 30_000n, 'the proven address got the tokens');
  assert.equal(await tokens(stranger.address), 0n);
});

test('over MCP the official SDK client proves the address with sign_in_with_x', async () => {
  const player = await newPlayer();
  const client = new Client({ name: 'arcade-siwx-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`));
  await client.connect(transport);
  const offered = await client.callTool({ name: 'arcade_siwx_challenge', arguments: { address: player.address } });
  assert.notEqual(offered.isError, true, JSON.stringify(offered));
  const { info, supportedChains: [chain] } = offered.structuredContent;
  const payload = await createSIWxPayload({ ...info, chainId: chain.chainId, type: chain.type }, player, server.baseUrl);
  const proof = encodeSIWxHeader(payload);

  const committed = await client.callTool({ name: 'arcade_commit', arguments: { address: player.address, sign_in_with_x: proof } });
  assert.notEqual(committed.isError, true, JSON.stringify(committed));
  assert.match(committed.structuredContent.round_id, /^r_/);
  const stranger = privateKeyToAccount(generatePrivateKey());
  const foreign = encodeSIWxHeader(await createSIWxPayload({ ...info, chainId: chain.chainId, type: chain.type }, stranger, server.baseUrl));
  const refused = await client.callTool({ name: 'arcade_commit', arguments: { address: player.address, sign_in_with_x: foreign } });
  assert.equal(refused.isError, true);
  assert.equal(refused.structuredContent.code, 'signature_mismatch');
  await transport.terminateSession();
  await client.close();
});
