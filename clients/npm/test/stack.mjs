// The dev stack for the client's tests: the arcade binary (ARCADE_BIN) started as `arcade dev`
// by the api-node suite's harness (its own anvil, test dollar and funded demo payer), and
// players to play it with.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from '../../../tests/api-node/server.mjs';

/** anvil's public test account 1: the dev chain's funded demo payer. */
export const DEMO_PAYER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

/** `arcade dev` on free ports; `rateLimits: false` for suites that play hundreds of rounds at once. */
export async function startStack({ rateLimits = true } = {}) {
  if (!rateLimits) process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  return startServer({ command: 'dev' });
}

/** A fresh player (or `key`'s) with the free chips (100, play money) claimed. */
export async function freePlayer(baseUrl, key = generatePrivateKey()) {
  const account = privateKeyToAccount(key);
  const response = await fetch(new URL('/api/arcade/free', baseUrl), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: account.address }),
  });
  if (!response.ok) throw new Error(`free chips: ${response.status} ${await response.text()}`);
  return account;
}

/** `account` with every signature it is asked for counted (`signatures.messages`, `.typedData`). */
export function countingAccount(account) {
  const signatures = { messages: 0, typedData: 0 };
  return {
    signatures,
    account: {
      address: account.address,
      signMessage: (args) => { signatures.messages += 1; return account.signMessage(args); },
      signTypedData: (args) => { signatures.typedData += 1; return account.signTypedData(args); },
    },
  };
}
