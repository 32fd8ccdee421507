// Sign-in-with-x with the official `@x402/extensions` helpers: a viem account signs the
// server's challenge (`createSIWxPayload`, `encodeSIWxHeader`) and commits, plays and rotates
// with the `SIGN-IN-WITH-X` header alone; every attack is refused with the code a bad statement
// signature gets, and leaves the balance as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  SIGN_IN_WITH_X, createSIWxPayload, encodeSIWxHeader, parseSIWxHeader, verifySIWxSignature,
} from '@x402/extensions/sign-in-with-x';
import { startServer } from './server.mjs';

let server;
before(async () => { server = await startServer(); });
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
  assert.match(manifest.sign_in_with_x.challenge, /\/api\/arcade\/siwx\/\{address\}$/);
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
