// The local MCP server: one player (the configured key), one arcade, the tools over stdio.
// The arcade is connected on first use (its manifest read, its signer pinned) and again after a
// failed connect, so a host may start the server before the arcade is up. Stdout carries MCP's
// JSON-RPC only; the log goes to stderr.
import { createRequire } from 'node:module';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { privateKeyToAccount } from 'viem/accounts';

import { Arcade } from '../arcade.js';
import type { Config } from './config.js';
import { registerTools } from './tools.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

const INSTRUCTIONS = 'The Provably Fair Arcade, played from a wallet this server holds: buy chips (arcade_buy_chips, under the ' +
  'spending cap the server was started with), play coinflip, dice, roulette and limbo (wagers in chips), cash paid chips out ' +
  '(arcade_cashout). Every round is verified here before it is reported: a round that fails a check is a tool error naming ' +
  'the check, never a played round. arcade_verify checks any bet by id; arcade_audit audits an address and the whole floor.';

const log = (line: string): void => {
  process.stderr.write(`[arcade-client mcp] ${line}\n`);
};

/** The arcade, connected on first use; a failed connect is tried again on the next call. */
function connector(config: Config, account: ReturnType<typeof privateKeyToAccount>): () => Promise<Arcade> {
  let connected: Promise<Arcade> | null = null;
  return () => {
    if (connected === null) {
      const connecting = Arcade.connect(config.url, { account, maxSpend: config.maxSpend });
      connected = connecting;
      connecting.then(
        (arcade) => log(`connected to ${arcade.url}: house signer ${arcade.signer} pinned`),
        (error) => {
          connected = null;
          log(`cannot connect to ${config.url}: ${error instanceof Error ? error.message : error}`);
        },
      );
    }
    return connected;
  };
}

/** Serves the tools over stdio until the host closes stdin. */
export async function serve(config: Config): Promise<void> {
  const account = privateKeyToAccount(config.key);
  const arcade = connector(config, account);
  const server = new McpServer({ name: 'arcade-client', version }, { instructions: INSTRUCTIONS });
  registerTools(server, { arcade, url: config.url, log });
  await server.connect(new StdioServerTransport());
  log(`arcade-client ${version} serving MCP on stdio: player ${account.address} (key from ${config.keySource}), arcade ${config.url}, ` +
    `${config.maxSpend === undefined ? 'no spending cap: nothing is bought' : `spending cap $${config.maxSpend}`}`);
  process.stdin.once('end', () => {
    void server.close().finally(() => process.exit(0));
  });
  arcade().catch(() => undefined);
}
