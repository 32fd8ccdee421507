// npm run bench (in tests/wasm-node): receipts per second of the installed wasm package in Node,
// beside the native core's in the same run.
//
// - wasm `verify`, one receipt a call: each game's first golden vector, and all of them in turn;
// - wasm `verifyMany`, every golden vector per call: as an array of receipts and as JSON lines;
// - native (criterion: `cargo bench -p arcade-core --bench verify -- verify_json`): every golden
//   vector's receipt parsed from its JSON text by serde_json and verified by the same core, with
//   sha2's portable backend (software SHA-256, as in wasm; ARCADE_BENCH_SHA=default for the
//   machine's own, e.g. SHA-NI), and the same with the report written as JSON.
//
//   ARCADE_BENCH_NATIVE=0 npm run bench          # wasm only (no cargo)
//   ARCADE_WASM=path/to/entry.js npm run bench   # another build, e.g. an older package's
//                                                # arcade_wasm.js (verifyMany where it has it)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cases } from './vectors.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const wasm = require(process.env.ARCADE_WASM ? resolve(process.env.ARCADE_WASM) : 'arcade-wasm');

/** Calls per second of `fn` (best of several runs), times `perCall` receipts. */
function rate(fn, perCall = 1, { runs = 7, seconds = 0.4 } = {}) {
  const warm = process.hrtime.bigint() + BigInt(0.3e9);
  while (process.hrtime.bigint() < warm) fn();
  let best = 0;
  for (let run = 0; run < runs; run++) {
    let n = 0;
    const start = process.hrtime.bigint();
    const until = start + BigInt(seconds * 1e9);
    let now = start;
    while (now < until) {
      for (let i = 0; i < 16; i++) fn();
      n += 16;
      now = process.hrtime.bigint();
    }
    best = Math.max(best, (n * perCall) / (Number(now - start) / 1e9));
  }
  return best;
}

/** Runs the native criterion group and returns `{name: receipts per second}`. */
function native() {
  if (process.env.ARCADE_BENCH_NATIVE === '0') return {};
  const backend = process.env.ARCADE_BENCH_SHA ?? 'soft';
  const env = { ...process.env };
  if (backend === 'soft') env.RUSTFLAGS = `${env.RUSTFLAGS ?? ''} --cfg sha2_backend="soft"`.trim();
  const args = ['bench', '--locked', '-p', 'arcade-core', '--bench', 'verify', '--', 'verify_json', '--warm-up-time', '1', '--measurement-time', '3'];
  console.error(`native: ${backend === 'soft' ? `RUSTFLAGS='${env.RUSTFLAGS}' ` : ''}cargo ${args.join(' ')}`);
  execFileSync('cargo', args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const metadata = JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: root, encoding: 'utf8' }));
  const rates = {};
  for (const name of ['all_vectors', 'all_vectors_with_report']) {
    const dir = join(metadata.target_directory, 'criterion', 'verify_json', name, 'new');
    const { mean } = JSON.parse(readFileSync(join(dir, 'estimates.json'), 'utf8'));
    const { throughput } = JSON.parse(readFileSync(join(dir, 'benchmark.json'), 'utf8'));
    rates[name] = throughput.Elements / (mean.point_estimate / 1e9);
  }
  return { backend, ...rates };
}

const receipts = cases.map((c) => c.receipt);
const lines = receipts.map((r) => JSON.stringify(r)).join('\n');
const rows = [];
for (const game of ['coinflip', 'dice', 'roulette']) {
  const receipt = receipts.find((r) => r.game === game);
  rows.push([`verify, ${game}`, rate(() => wasm.verify(receipt))]);
}
let next = 0;
rows.push([`verify, all ${receipts.length} vectors in turn`, rate(() => wasm.verify(receipts[next++ % receipts.length]))]);
const single = rows.at(-1)[1];
let many;
if (typeof wasm.verifyMany === 'function') {
  many = rate(() => wasm.verifyMany(receipts), receipts.length, { seconds: 0.8 });
  rows.push([`verifyMany, array of ${receipts.length}`, many]);
  rows.push([`verifyMany, ${receipts.length} JSON lines`, rate(() => wasm.verifyMany(lines), receipts.length, { seconds: 0.8 })]);
}
const nat = native();

const fmt = (n) => Math.round(n).toLocaleString('en-US').padStart(12);
console.log(`node ${process.version}, ${process.env.ARCADE_WASM ?? 'arcade-wasm (installed)'}: receipts per second`);
for (const [label, value] of rows) console.log(`${label.padEnd(44)}${fmt(value)}`);
if (nat.all_vectors) {
  const sha = nat.backend === 'soft' ? 'portable software SHA-256' : "the machine's SHA-256";
  console.log(`native, parse JSON + verify (${sha})`.padEnd(44) + fmt(nat.all_vectors));
  console.log('native, the same + report as JSON'.padEnd(44) + fmt(nat.all_vectors_with_report));
  console.log(`wasm verify (all vectors) / native: ${((100 * single) / nat.all_vectors).toFixed(1)}%`);
  if (many) console.log(`wasm verifyMany (array) / native: ${((100 * many) / nat.all_vectors).toFixed(1)}%`);
}
