// A client seed used again by the same address: the house knew it before that round's commit,
// so it could have handed the round an index whose seed loses against it (docs/proofs.md,
// "Verdicts"). The audit calls such a round "consistent, not proven", counted apart, and exits
// 4; the first use of the seed, and the same seed from another address, still pass.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from '../api-node/server.mjs';
import { freshClientSeed, signedCall, signingDomain } from './play.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = process.env.ARCADE_AUDIT ?? join(here, 'node_modules', '.bin', 'arcade-audit');

function runAudit(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      let report = null;
      if (args.includes('--json')) try { report = JSON.parse(stdout); } catch { /* shown by the assertion */ }
      resolve({ code: error ? error.code : 0, stdout, stderr, report });
    });
  });
}

async function api(baseUrl, path, body) {
  const response = await fetch(`${baseUrl}${path}`, body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const json = await response.json();
  assert.ok(response.ok, `${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** A signed player: `play(clientSeed)` plays one signed coinflip and answers its receipt. */
async function newPlayer(baseUrl, domain) {
  const account = privateKeyToAccount(generatePrivateKey());
  await api(baseUrl, '/api/arcade/free', { address: account.address });
  const { statement } = await api(baseUrl, `/api/arcade/auth-statement/${account.address}`);
  const signature = await account.signMessage({ message: statement });
  return async (clientSeed) => {
    const commit = await api(baseUrl, '/api/arcade/commit', { address: account.address, signature });
    const body = { round_id: commit.round_id, client_seed: clientSeed, wager: 1, call: 'heads' };
    return api(baseUrl, '/api/arcade/flip', await signedCall(account, { commit, domain, game: 'flip', body }));
  };
}

let server;
before(async () => {
  process.env.ARCADE__RATE_LIMITS__ENABLED = 'false';
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test('a client seed its address used before makes the round "consistent, not proven" (exit 4), counted apart; another address\'s same seed passes', async () => {
  const domain = await signingDomain(server.baseUrl);
  const [alice, bob] = [await newPlayer(server.baseUrl, domain), await newPlayer(server.baseUrl, domain)];
  const shared = freshClientSeed();
  await alice(shared);
  await alice(freshClientSeed());
  const reused = await alice(shared);
  await bob(shared);

  const run = await runAudit(server.baseUrl, '--json');
  assert.equal(run.code, 4, `${run.stderr}\n${run.stdout.slice(0, 3000)}`);
  assert.equal(run.report.rounds, 4);
  assert.equal(run.report.failures_total, 0, JSON.stringify(run.report.failures));
  assert.equal(run.report.verified, 3);
  assert.equal(run.report.unsigned, 1);
  assert.equal(run.report.reused_client_seeds, 1);
  assert.equal(run.report.unsigned_plays, 0);
  const text = await runAudit(server.baseUrl);
  assert.match(text.stdout, /client seed reused: 1/);
  assert.match(text.stdout, new RegExp(`no failures, but 1 round\\(s\\) reuse a client seed their address used before \\(bets: ${reused.bet_id}\\)`));
  assert.deepEqual(run.report.reused_client_seed_bets, [reused.bet_id]);
});
