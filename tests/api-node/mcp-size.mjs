// The size of /api/mcp's tools/list as an MCP client reads it into its context: starts the built
// `arcade` (`serve`, or `dev` with `--dev`), initializes, lists the tools, and prints the bytes of
// the result's JSON in all and per tool (its description, inputSchema and outputSchema).
//   ARCADE_BIN=…/debug/arcade node mcp-size.mjs [--dev] [--json]
import { listedTools } from './mcp-size-lib.mjs';
import { startServer } from './server.mjs';

const server = await startServer({ command: process.argv.includes('--dev') ? 'dev' : 'serve' });
try {
  const sizes = await listedTools(server.baseUrl);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(sizes, null, 2));
  } else {
    console.log(`tools/list result: ${sizes.total} bytes (${sizes.tools.length} tools)`);
    console.log('tool                   total   descr   input  output');
    for (const t of sizes.tools) {
      console.log(
        `${t.name.padEnd(22)} ${String(t.total).padStart(6)} ${String(t.description).padStart(7)} `
          + `${String(t.input).padStart(7)} ${String(t.output).padStart(7)}`,
      );
    }
    const sum = (key) => sizes.tools.reduce((n, t) => n + t[key], 0);
    console.log(`${'all'.padEnd(22)} ${String(sum('total')).padStart(6)} ${String(sum('description')).padStart(7)} `
      + `${String(sum('input')).padStart(7)} ${String(sum('output')).padStart(7)}`);
  }
} finally {
  await server.stop();
}
