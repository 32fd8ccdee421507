// Purchases are capped: a tier above what is left of the caller's cap is refused before
// anything is signed (no signature asked of the account, no payment sent); within it, the
// official x402 client pays and the cap shrinks by the price.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { privateKeyToAccount } from 'viem/accounts';

import { Arcade, SpendingCapError, UnsupportedServerError } from '../dist/index.js';
import { startProxy } from './proxy.mjs';
import { DEMO_PAYER_KEY, countingAccount, startStack } from './stack.mjs';

let stack;
let proxy;
before(async () => {
  stack = await startStack();
  proxy = await startProxy(stack.baseUrl);
});
after(async () => {
  await proxy?.stop();
  await stack?.stop();
});

const purchases = () => proxy.log.filter((entry) => entry.path.startsWith('/api/arcade/chips'));
const payments = () => purchases().filter((entry) => entry.headers['payment-signature']);

test('above the cap: refused before any request or signature; without a cap nothing is bought', async () => {
  const { account, signatures } = countingAccount(privateKeyToAccount(DEMO_PAYER_KEY));
  const arcade = await Arcade.connect(proxy.url, { account, maxSpend: '0.50' });
  await assert.rejects(arcade.buyChips('medium'), (error) => {
    assert.ok(error instanceof SpendingCapError);
    assert.equal(error.price, 1_000_000n);
    assert.equal(error.remaining, 500_000n);
    return true;
  });
  const uncapped = await Arcade.connect(proxy.url, { account });
  await assert.rejects(uncapped.buyChips('micro'), { name: 'SpendingCapError' });
  assert.deepEqual(signatures, { messages: 0, typedData: 0 });
  assert.deepEqual(purchases(), [], 'nothing was asked of the arcade');
  assert.equal((await arcade.balance()).chips, 0);
});

test('a manifest understating the price: the 402 challenge\'s price is refused before signing', async () => {
  proxy.rewrite = (method, path, json) => (path === '/api/arcade/manifest'
    ? { ...json, resources: json.resources.map((r) => ({ ...r, amount: '10000' })) }
    : undefined);
  const { account, signatures } = countingAccount(privateKeyToAccount(DEMO_PAYER_KEY));
  try {
    const arcade = await Arcade.connect(proxy.url, { account, maxSpend: 50_000n });
    await assert.rejects(arcade.buyChips('medium'), (error) => {
      assert.ok(error instanceof SpendingCapError, `${error}`);
      assert.equal(error.price, 1_000_000n, 'the price the arcade asked');
      return true;
    });
  } finally {
    proxy.rewrite = null;
  }
  assert.deepEqual(signatures, { messages: 0, typedData: 0 });
  assert.equal(purchases().length, 1, 'the challenge was asked for');
  assert.deepEqual(payments(), [], 'no payment was sent');
  proxy.log.length = 0;
});

test('within the cap: bought with x402, the cap shrinks by the price, the next tier above what is left is refused', async () => {
  const { account, signatures } = countingAccount(privateKeyToAccount(DEMO_PAYER_KEY));
  const arcade = await Arcade.connect(proxy.url, { account, maxSpend: '0.15' });
  const bought = await arcade.buyChips('small');
  assert.equal(bought.chips_credited, 1000);
  assert.equal(bought.address, account.address);
  assert.match(bought.tx_hash, /^0x[0-9a-f]{64}$/);
  assert.equal(arcade.spendable, 50_000n);
  assert.equal(signatures.typedData, 1, 'one payment signed');
  await assert.rejects(arcade.buyChips('small'), { name: 'SpendingCapError' });
  assert.equal(signatures.typedData, 1);
  assert.equal(payments().length, 1);
  assert.equal((await arcade.balance()).chips, 1000);
  proxy.log.length = 0;
});

test('purchases asked for together take turns: under a cap for one, one is bought and the other refused', async () => {
  const arcade = await Arcade.connect(stack.baseUrl, { account: privateKeyToAccount(DEMO_PAYER_KEY), maxSpend: '0.01' });
  const [first, second] = await Promise.allSettled([arcade.buyChips('micro'), arcade.buyChips('micro')]);
  assert.equal(first.status, 'fulfilled', `${first.reason}`);
  assert.equal(second.status, 'rejected');
  assert.ok(second.reason instanceof SpendingCapError, `${second.reason}`);
  assert.equal(arcade.spendable, 0n);
});

test('a manifest stating other decimals than a dollar token\'s is refused at connect: a decimal cap is never read at the house\'s word', async () => {
  proxy.rewrite = (method, path, json) => (path === '/api/arcade/manifest' ? { ...json, token: { ...json.token, decimals: 18 } } : undefined);
  const { account, signatures } = countingAccount(privateKeyToAccount(DEMO_PAYER_KEY));
  try {
    await assert.rejects(Arcade.connect(proxy.url, { account, maxSpend: '0.05' }), (error) => {
      assert.ok(error instanceof UnsupportedServerError, `${error}`);
      assert.equal(error.field, 'token.decimals');
      return true;
    });
  } finally {
    proxy.rewrite = null;
  }
  assert.deepEqual(signatures, { messages: 0, typedData: 0 });
  assert.deepEqual(payments(), [], 'no payment was sent');
  proxy.log.length = 0;
});

test('a payment whose answer is lost still counts against the cap: the next purchase beyond what is left is refused before signing', async () => {
  const { account, signatures } = countingAccount(privateKeyToAccount(DEMO_PAYER_KEY));
  const arcade = await Arcade.connect(proxy.url, { account, maxSpend: '0.15' });
  proxy.drop = (method, path, headers) => path.startsWith('/api/arcade/chips') && Boolean(headers['payment-signature']);
  await assert.rejects(arcade.buyChips('small'));
  assert.equal(purchases().filter((entry) => entry.dropped).length, 1, 'the paid answer was dropped');
  assert.equal(arcade.spendable, 50_000n, 'the signed payment was charged');
  await assert.rejects(arcade.buyChips('small'), { name: 'SpendingCapError' });
  assert.equal(signatures.typedData, 1, 'nothing more was signed');
  proxy.log.length = 0;
});
