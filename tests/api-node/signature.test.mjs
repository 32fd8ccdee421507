// A player whose identity is signed by viem (an independent EIP-191 implementation) plays a
// round against the real server; a forged signature is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
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

test('a viem personal_sign signature opens and plays a round', async () => {
  const player = privateKeyToAccount(generatePrivateKey());
  const { body: auth } = await call('GET', `/api/arcade/auth-statement/${player.address.toLowerCase()}`);
  assert.equal(auth.address, player.address, 'checksummed like viem does');
  const signature = await player.signMessage({ message: auth.statement });

  assert.equal((await call('POST', '/api/arcade/free', { address: player.address, signature })).status, 200);
  const committed = await call('POST', '/api/arcade/commit', { address: player.address, signature });
  assert.equal(committed.status, 200, JSON.stringify(committed.body));

  const played = await call('POST', '/api/arcade/flip', {
    round_id: committed.body.round_id, client_seed: 'viem player', wager: 10, call: 'heads', signature,
  });
  assert.equal(played.status, 200, JSON.stringify(played.body));
  const receipt = played.body;
  const commitment = createHash('sha256').update(receipt.server_seed).digest('hex');
  assert.equal(commitment, committed.body.commitment);
  assert.equal(receipt.balance, 100 + receipt.profit);

  const verified = await call('GET', `/api/arcade/verify/${receipt.bet_id}`);
  assert.deepEqual([verified.body.verdict, verified.body.mismatches], ['consistent, not proven', []]);
});

test('a signature by another viem account is refused', async () => {
  const player = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());
  const { body: auth } = await call('GET', `/api/arcade/auth-statement/${player.address}`);
  const forged = await stranger.signMessage({ message: auth.statement });
  const refused = await call('POST', '/api/arcade/commit', { address: player.address, signature: forged });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.code, 'signature_mismatch');
});
