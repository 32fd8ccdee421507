#!/usr/bin/env node
// Runs the Rust test binaries a build listed, as `cargo test` runs them, without cargo:
//   node tests/scripts/rust-tests.mjs <messages.jsonl>
// <messages.jsonl> is what `cargo test --no-run --message-format=json` printed: every compiled
// test target that `cargo test` runs (a library's or binary's unit tests, an integration test;
// not benches or examples) is run in its package's directory, one after another, each to its
// end. Exits 1 when any failed, naming them. tests/run.sh runs the tests this way so that no
// cargo holds the build directory's lock while they run, and the release and the run command
// can build beside them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

/** The test binaries of the build's messages: `{name, executable, dir}`, in build order. */
function testBinaries(messages) {
  const binaries = [];
  for (const line of messages.split('\n')) {
    if (!line.startsWith('{')) continue;
    const message = JSON.parse(line);
    if (message.reason !== 'compiler-artifact' || !message.executable) continue;
    if (message.profile?.test !== true || message.target?.test !== true) continue;
    const dir = dirname(message.manifest_path);
    binaries.push({ name: `${basename(dir)}: ${message.target.kind.join(',')} ${message.target.name}`, executable: message.executable, dir });
  }
  return binaries;
}

function main() {
  const [file] = process.argv.slice(2);
  if (!file) {
    console.error('usage: rust-tests.mjs <messages.jsonl>');
    process.exit(2);
  }
  const binaries = testBinaries(readFileSync(file, 'utf8'));
  if (binaries.length === 0) {
    console.error(`${file}: no test binaries (was it written by cargo test --no-run --message-format=json?)`);
    process.exit(2);
  }
  const failed = [];
  for (const { name, executable, dir } of binaries) {
    console.log(`\n     Running ${name} (${executable})`);
    const run = spawnSync(executable, [], { cwd: dir, stdio: 'inherit', env: { ...process.env, CARGO_MANIFEST_DIR: dir } });
    if (run.status !== 0) failed.push(`${name}: ${run.signal ? `killed by ${run.signal}` : `exit ${run.status}`}`);
  }
  console.log(`\n${binaries.length} test binaries, ${failed.length} failed`);
  for (const failure of failed) console.log(`  FAILED ${failure}`);
  process.exit(failed.length > 0 ? 1 : 0);
}

main();
