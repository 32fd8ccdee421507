// The arcade as x402 indexers find it, checked with the validator x402scan runs (npm
// @agentcash/discovery, unmodified; x402scan's docs/DISCOVERY.md): OpenAPI at /openapi.json with
// x-payment-info and a 402 on every paid operation, pay_to's ownership proof over the origin
// (recovered with viem, as x402scan's lib/ownership-proof.ts does), a live 402 that agrees and
// passes the validator's x402 checks, and /.well-known/x402 in x402scan's fan-out format. Then the
// official client pays with the spend controls the 402 itself names. Each step prints what it
// checked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  checkEndpointSchema,
  discoverOriginSchema,
  getOpenAPI,
  getWarningsForL3,
  getWarningsForOpenAPI,
  validatePaymentRequiredDetailed,
} from '@agentcash/discovery';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { recoverMessageAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { startServer } from './server.mjs';

// anvil's public test account 1: the dev chain's demo payer.
const DEMO_PAYER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

let server;
let manifest;
let paid;
before(async () => {
  server = await startServer({ command: 'dev' });
  manifest = await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json();
  paid = manifest.resources.flatMap((r) => ['GET', 'POST'].map((method) => ({ method, ...r })));
});
after(() => server?.stop());

const origin = () => new URL(server.baseUrl).origin;
const errors = (warnings) => warnings.filter((w) => w.severity === 'error');

async function assertPayToSigned(proofs, where) {
  assert.ok(proofs?.length > 0, `${where}: ownership proofs`);
  for (const signature of proofs) {
    const signer = await recoverMessageAddress({ message: origin(), signature });
    assert.equal(signer, manifest.pay_to, `${where}: signed by pay_to over ${origin()}`);
  }
  console.log(`${where}: ${proofs.length} ownership proof(s), recovered pay_to ${manifest.pay_to} over ${origin()}`);
}

test('the OpenAPI document lists every paid route at its price, owned by pay_to', async () => {
  const found = await discoverOriginSchema({ target: server.baseUrl });
  assert.equal(found.found, true, JSON.stringify(found));
  assert.equal(found.source, 'openapi');
  assert.equal(found.trustTier, 'ownership_verified');
  await assertPayToSigned(found.ownershipProofs, 'OpenAPI x-discovery');
  for (const { method, path, price_usd: price } of paid) {
    const endpoint = found.endpoints.find((e) => e.method === method && e.path === path);
    assert.ok(endpoint, `${method} ${path} discovered`);
    assert.equal(endpoint.resourceKey, `${origin()} ${method} ${path}`);
    assert.equal(endpoint.authMode, 'paid', `${method} ${path}`);
    assert.equal(endpoint.price, `${price} USD`);
    assert.deepEqual(endpoint.protocols, ['x402']);
    console.log(`${endpoint.resourceKey}: ${endpoint.authMode}, ${endpoint.price}, ${endpoint.protocols}`);
  }
  const unpaid = found.endpoints.filter((e) => e.authMode === 'paid' && !paid.some((p) => p.path === e.path));
  assert.deepEqual(unpaid, [], 'only the chip routes are paid');

  const openApi = (await getOpenAPI(origin()))._unsafeUnwrap();
  const warnings = getWarningsForOpenAPI(openApi);
  assert.deepEqual(errors(warnings), []);
  console.log(`OpenAPI audit: no error (${warnings.map((w) => w.code).join(', ') || 'no warning'})`);
});

test('an unpaid probe of each paid route gets a 402 the validator accepts, as OpenAPI priced it', async () => {
  for (const resource of manifest.resources) {
    const checked = await checkEndpointSchema({ url: resource.url, probe: true });
    assert.equal(checked.found, true, JSON.stringify(checked));
    for (const method of ['GET', 'POST']) {
      const advisory = checked.advisories.find((a) => a.method === method);
      assert.ok(advisory, `${method} ${resource.path} probed`);
      assert.deepEqual(errors(getWarningsForL3(advisory)), [], `${method} ${resource.path}`);
      const option = advisory.paymentOptions?.find((o) => o.protocol === 'x402');
      assert.deepEqual(
        { version: option?.version, amount: option?.amount, asset: option?.asset, payTo: option?.payTo },
        { version: 2, amount: resource.amount, asset: manifest.asset, payTo: manifest.pay_to },
        `${method} ${resource.path}`,
      );
      const reply = await fetch(resource.url, { method });
      assert.equal(reply.status, 402, `${method} ${resource.path}`);
      const validated = validatePaymentRequiredDetailed(await reply.json(), {
        requireInputSchema: true,
        requireOutputSchema: true,
      });
      assert.equal(validated.valid, true, JSON.stringify(validated.issues));
      console.log(`${method} ${resource.path}: 402, x402 v2 ${option.amount} base units to ${option.payTo}, validator: valid`);
    }
  }
});

test('/.well-known/x402 is x402scan\'s fan-out document, with the same proof', async () => {
  const document = await (await fetch(`${server.baseUrl}/.well-known/x402`)).json();
  // x402scan's schema (packages/external/mcp, discover.ts): version 1, resources as strings,
  // optional ownershipProofs (strings) and instructions (a string).
  assert.equal(document.version, 1);
  assert.ok(document.resources.every((r) => typeof r === 'string'));
  assert.equal(typeof document.instructions, 'string');
  assert.deepEqual(document.resources, manifest.resources.map((r) => r.url));
  await assertPayToSigned(document.ownershipProofs, '/.well-known/x402');
  for (const url of document.resources) {
    assert.equal((await fetch(url)).status, 402, url);
  }
  assert.equal(document.links.openapi, `${server.baseUrl}/api/openapi.json`);
  console.log(`/.well-known/x402: version 1, ${document.resources.length} resources, each answering 402`);
});

test('the official client pays with the spend controls the 402 names', async () => {
  const url = `${server.baseUrl}/api/arcade/chips/micro`;
  const challenge = await (await fetch(url, { method: 'POST' })).json();
  const controls = challenge.extensions['spend-controls'].info;
  const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(DEMO_PAYER_KEY)));
  client.setSpendControls({ allowedAssets: controls.allowedAssets });
  const reply = await wrapFetchWithPayment(fetch, client)(url, { method: 'POST' });
  const body = await reply.json();
  assert.equal(reply.status, 200, JSON.stringify(body));
  assert.equal(body.chips_credited, 100);
  console.log(`@x402/fetch paid ${url} allowing ${JSON.stringify(controls.allowedAssets)}: ${body.chips_credited} chips`);
});
