#!/usr/bin/env node
// The arcade-client command. `arcade-client mcp --url <arcade URL> [--max-spend <USD>]` serves
// the arcade as a local MCP server over stdio (src/mcp/). Stdout is the MCP channel, so
// everything else (console output of any module included) goes to stderr; a configuration it
// cannot run with (no key, a key in the arguments, no URL) exits 2 with the reason.
import { ConfigError, USAGE, configOf } from './mcp/config.js';

for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error;

const [command, ...args] = process.argv.slice(2);
if (command !== 'mcp') {
  const help = command === '--help' || command === '-h';
  if (!help && command !== undefined) process.stderr.write('unknown command: the one command is mcp\n');
  process.stderr.write(`${USAGE}\n`);
  process.exit(help ? 0 : 2);
}
try {
  const config = configOf(args, process.env);
  const { serve } = await import('./mcp/server.js');
  await serve(config);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`arcade-client mcp: ${error.message}\n\n${USAGE}\n`);
  process.exit(2);
}
