// Buys chips from an arcade with the official x402 client (@x402/fetch + @x402/evm), unmodified.
//   node buy-chips.mjs [base-url] [tier]        e.g. node buy-chips.mjs http://127.0.0.1:8402 small
// The payer key comes from PAYER_KEY, else anvil's public test account 1 (the dev chain's demo
// payer). The arcade's token is not one of the client's default assets, so it is allowed
// explicitly in the client's spend controls, for this network and token only.
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';

const ANVIL_ACCOUNT_1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const baseUrl = (process.argv[2] ?? 'http://127.0.0.1:8402').replace(/\/$/, '');
const tier = process.argv[3];
const account = privateKeyToAccount(process.env.PAYER_KEY ?? ANVIL_ACCOUNT_1);

const manifest = await (await fetch(`${baseUrl}/api/arcade/manifest`)).json();
if (!manifest.asset) throw new Error(`no x402 manifest at ${baseUrl}: ${JSON.stringify(manifest)}`);
const client = new x402Client().register('eip155:*', new ExactEvmScheme(account));
client.setSpendControls({ allowedAssets: [{ network: manifest.network, asset: manifest.asset }] });

const url = `${baseUrl}/api/arcade/chips${tier ? `/${tier}` : ''}`;
const response = await wrapFetchWithPayment(fetch, client)(url, { method: 'POST' });
const body = await response.json();
if (!response.ok) {
  console.error(`HTTP ${response.status}`, JSON.stringify(body, null, 2));
  process.exit(1);
}
const settlement = new x402HTTPClient(client).getPaymentSettleResponse((name) => response.headers.get(name));
console.log(JSON.stringify({ purchase: body, settlement }, null, 2));
