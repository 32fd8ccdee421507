// The arcade sold to by npm's official x402 client (@x402/fetch + @x402/evm), unmodified, on the
// dev chain the `arcade dev` command starts; the chain is read back with viem.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { createPublicClient, erc20Abi, http, parseEventLogs } from 'viem';
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

function payingFetch(account, manifest) {
  const client = new x402Client().register('eip155:*', new ExactEvmScheme(account));
  // Our token is not one of the client's default assets: allow it, for this network only.
  client.setSpendControls({ allowedAssets: [{ network: manifest.network, asset: manifest.asset }] });
  return { client, pay: wrapFetchWithPayment(fetch, client) };
}

const tokenBalance = (token, owner) =>
  chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

test('the official client buys chips; the signer gets them and the token moves on-chain', async () => {
  const manifest = await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json();
  const account = privateKeyToAccount(DEMO_PAYER_KEY);
  assert.equal(account.address, server.chain.payer);
  const payerBefore = await tokenBalance(manifest.asset, account.address);
  const houseBefore = await tokenBalance(manifest.asset, manifest.pay_to);
  const { client, pay } = payingFetch(account, manifest);

  // POST to a tier, then GET the default resource: both are x402 resources.
  const small = await pay(`${server.baseUrl}/api/arcade/chips/small`, { method: 'POST' });
  const smallBody = await small.json();
  assert.equal(small.status, 200, JSON.stringify(smallBody));
  assert.equal(smallBody.address, account.address);
  assert.equal(smallBody.chips_credited, 1000);
  const settlement = new x402HTTPClient(client).getPaymentSettleResponse((name) => small.headers.get(name));
  assert.equal(settlement.success, true);
  assert.equal(settlement.transaction, smallBody.tx_hash);
  assert.equal(settlement.payer, account.address);

  const byGet = await pay(`${server.baseUrl}/api/arcade/chips`);
  const byGetBody = await byGet.json();
  assert.equal(byGet.status, 200, JSON.stringify(byGetBody));
  assert.equal(byGetBody.balance, 2000);

  const balance = await (await fetch(`${server.baseUrl}/api/arcade/balance/${account.address}`)).json();
  assert.deepEqual([balance.chips, balance.bought_in], [2000, true]);
  assert.equal(await tokenBalance(manifest.asset, account.address), payerBefore - 200_000n);
  assert.equal(await tokenBalance(manifest.asset, manifest.pay_to), houseBefore + 200_000n);

  // The settlement is one ERC-20 Transfer from the payer to pay-to, paid for by the house.
  const receipt = await chain.getTransactionReceipt({ hash: smallBody.tx_hash });
  assert.equal(receipt.status, 'success');
  assert.equal(receipt.from.toLowerCase(), server.chain.house.toLowerCase());
  const [transfer] = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' });
  assert.equal(transfer.args.from, account.address);
  assert.equal(transfer.args.to.toLowerCase(), manifest.pay_to.toLowerCase());
  assert.equal(transfer.args.value, 100_000n);
});

test('the official client echoes the discovery metadata of the 402 it pays', async () => {
  const manifest = await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json();
  const { client } = payingFetch(privateKeyToAccount(DEMO_PAYER_KEY), manifest);
  // The payment header the client sends, recorded on its way out.
  const sent = [];
  const recording = (request) => {
    sent.push(request.headers.get('PAYMENT-SIGNATURE'));
    return fetch(request);
  };
  const pay = wrapFetchWithPayment(recording, client);
  const url = `${server.baseUrl}/api/arcade/chips/micro`;
  const challenge = await fetch(url, { method: 'POST' });
  const requiredHeader = challenge.headers.get('PAYMENT-REQUIRED');
  const required = new x402HTTPClient(client).getPaymentRequiredResponse((name) => challenge.headers.get(name));
  const bazaar = required.extensions.bazaar;
  assert.deepEqual(bazaar.info.input, { type: 'http', method: 'POST', bodyType: 'json', body: {}, pathParams: { tier: 'micro' } });
  assert.equal(bazaar.routeTemplate, '/api/arcade/chips/:tier');
  assert.equal(required.resource.serviceName, 'Provably Fair Arcade');

  const response = await pay(url, { method: 'POST' });
  assert.equal(response.status, 200, await response.clone().text());
  const paymentHeader = sent.find(Boolean);
  const payment = JSON.parse(Buffer.from(paymentHeader, 'base64').toString('utf8'));
  // Each 402 issues a fresh sign-in-with-x challenge (its own nonce and window); the rest of
  // what the client echoes is the challenge as fetched here.
  const fresh = ({ nonce, issuedAt, expirationTime, ...rest }) => rest;
  const echoed = payment.extensions['sign-in-with-x'];
  assert.match(echoed.info.nonce, /^[0-9a-f]{32}$/);
  assert.deepEqual(fresh(echoed.info), fresh(required.extensions['sign-in-with-x'].info));
  const without = ({ 'sign-in-with-x': _, ...rest }) => rest;
  assert.deepEqual(without(payment.extensions), without(required.extensions));
  assert.deepEqual(payment.resource, required.resource);
  // Headers stay well inside common proxy limits (a 4 KiB response header buffer, 8 KiB lines).
  assert.ok(requiredHeader.length < 4096, `PAYMENT-REQUIRED is ${requiredHeader.length} bytes`);
  assert.ok(paymentHeader.length < 8192, `PAYMENT-SIGNATURE is ${paymentHeader.length} bytes`);
  console.log(`PAYMENT-REQUIRED ${requiredHeader.length} bytes, PAYMENT-SIGNATURE ${paymentHeader.length} bytes`);
});

test('a payer without tokens is refused with the reason, and credited nothing', async () => {
  const manifest = await (await fetch(`${server.baseUrl}/api/arcade/manifest`)).json();
  const account = privateKeyToAccount('0x' + '11'.repeat(32));
  const { pay } = payingFetch(account, manifest);
  const response = await pay(`${server.baseUrl}/api/arcade/chips/micro`, { method: 'POST' });
  const body = await response.json();
  assert.equal(response.status, 402);
  assert.equal(body.error, 'insufficient_funds');
  const balance = await (await fetch(`${server.baseUrl}/api/arcade/balance/${account.address}`)).json();
  assert.equal(balance.chips, 0);
});
