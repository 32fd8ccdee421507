#!/usr/bin/env node
// Builds a wasm crate of the workspace into an npm package directory:
//   node wasm/pack.mjs <crate dir> <nodejs|web|bundler> <out dir, relative to the crate dir>
// cargo (release profile, wasm32-unknown-unknown, run in the crate's directory so that its
// .cargo/config.toml shapes the module), then wasm-bindgen (the CLI at exactly the
// version of the `wasm-bindgen` crate: tests/scripts/install-tools.sh), then wasm-opt with the
// flags the crate's Cargo.toml names under [package.metadata.wasm-opt] `release`, then a
// package.json from the crate's manifest. The same files, byte for byte, as `wasm-pack build
// --release`, without compiling wasm-pack first.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const TARGETS = ['nodejs', 'web', 'bundler'];
// The module is compiled by rustc alone, as anyone who builds it does: tests/run.sh lints the
// workspace by compiling it with clippy-driver (RUSTC_WORKSPACE_WRAPPER), which leaves MIR
// unoptimized and so would change the module's bytes.
const { RUSTC_WORKSPACE_WRAPPER, CLIPPY_ARGS, ...buildEnv } = process.env;
const run = (command, args, cwd) => execFileSync(command, args, { cwd, env: buildEnv, stdio: ['ignore', 'inherit', 'inherit'] });

/** The crate whose manifest is in `crateDir`, as `cargo metadata` describes it. */
function crateAt(crateDir) {
  const metadata = JSON.parse(execFileSync('cargo', [
    'metadata', '--locked', '--no-deps', '--format-version', '1', '--manifest-path', join(crateDir, 'Cargo.toml'),
  ], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  const crate = metadata.packages.find((p) => dirname(p.manifest_path) === crateDir);
  if (!crate) throw new Error(`${crateDir}: not a crate of the workspace`);
  const lib = crate.targets.find((t) => t.kind.includes('cdylib'));
  if (!lib) throw new Error(`${crate.name}: no cdylib target to build for wasm`);
  const flags = crate.metadata?.['wasm-opt']?.release;
  if (!Array.isArray(flags)) throw new Error(`${crate.name}: no [package.metadata.wasm-opt] release flags`);
  return { crate, lib: lib.name.replaceAll('-', '_'), flags, targetDir: metadata.target_directory };
}

/** The package.json of the package: what wasm-pack wrote for the crate and target. */
function packageJson(crate, lib, target) {
  const entry = `${lib}.js`;
  return {
    name: crate.name,
    ...(target === 'web' || target === 'bundler' ? { type: 'module' } : {}),
    description: crate.description ?? undefined,
    version: crate.version,
    license: crate.license ?? undefined,
    files: [`${lib}_bg.wasm`, entry, `${lib}.d.ts`, ...(target === 'bundler' ? [`${lib}_bg.js`] : [])],
    main: entry,
    ...(target === 'bundler' ? { module: entry } : {}),
    types: `${lib}.d.ts`,
    ...(target === 'nodejs' ? {} : { sideEffects: target === 'web' ? ['./snippets/*'] : [`./${entry}`, './snippets/*'] }),
  };
}

function main() {
  const [dir, target, outName] = process.argv.slice(2);
  if (!dir || !TARGETS.includes(target) || !outName) {
    console.error(`usage: pack.mjs <crate dir> <${TARGETS.join('|')}> <out dir>`);
    process.exit(2);
  }
  const crateDir = resolve(dir);
  const { crate, lib, flags, targetDir } = crateAt(crateDir);
  const out = join(crateDir, outName);
  console.error(`[pack] ${crate.name} for ${target} into ${out}`);
  run('cargo', ['build', '--locked', '--release', '--target', 'wasm32-unknown-unknown', '-p', crate.name], crateDir);
  // Built beside the package, then each file renamed into it: a server serving the package
  // while it is rebuilt (a test run's release step) reads the old file or the new, never none.
  const building = `${out}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  run('wasm-bindgen', ['--target', target, '--out-dir', building, join(targetDir, 'wasm32-unknown-unknown', 'release', `${lib}.wasm`)]);
  const module = join(building, `${lib}_bg.wasm`);
  run('wasm-opt', [...flags, module, '-o', module]);
  writeFileSync(join(building, 'package.json'), `${JSON.stringify(packageJson(crate, lib, target), null, 2)}\n`);
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(building)) renameSync(join(building, file), join(out, file));
  rmSync(building, { recursive: true, force: true });
}

main();
