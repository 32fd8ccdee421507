// Starts the built `arcade` binary on a free port over a fresh SQLite file and stops it after:
// `serve` (no chain), or `dev` (its own anvil with the test dollar and a funded demo payer).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function startServer({ command = 'serve' } = {}) {
  const bin = process.env.ARCADE_BIN;
  if (!bin) throw new Error('ARCADE_BIN must point at the built arcade binary (tests/run.sh sets it)');
  const dir = mkdtempSync(join(tmpdir(), 'arcade-node-'));
  const env = { ...process.env };
  delete env.RUST_LOG; // the listening line is logged at info
  const args = command === 'dev' ? ['dev', '--chain-port', '0'] : [command];
  if (command === 'dev' && process.env.ARCADE_ANVIL_BIN) args.push('--anvil', process.env.ARCADE_ANVIL_BIN);
  const child = spawn(bin, args, {
    cwd: process.env.ARCADE_ROOT ?? process.cwd(),
    env: {
      ...env,
      ARCADE__SERVER__PORT: '0',
      ARCADE__DATABASE__URL: `sqlite://${join(dir, 'arcade.db')}?mode=rwc`,
      ARCADE__LOG__FILTER: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const chain = {};
  const baseUrl = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in 30 s:\n${output}`)), 30_000);
    const onData = (chunk) => {
      output += chunk;
      const ready = output.match(/dev chain ready rpc=(\S+) token=(\S+) house=(\S+) payer=(\S+)/);
      if (ready) Object.assign(chain, { rpcUrl: ready[1], token: ready[2], house: ready[3], payer: ready[4] });
      const match = output.match(/arcade listening url=(http:\/\/[\d.]+:\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`arcade exited with ${code}:\n${output}`)));
  });
  return {
    baseUrl,
    chain,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
