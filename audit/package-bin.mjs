#!/usr/bin/env node
// Makes a built `nodejs`-target arcade-wasm package carry the audit command:
//   node audit/package-bin.mjs wasm/pkg-node [--proofs proofs-wasm/pkg-node]
// copies the audit's modules and the proofs module (arcade_proofs*) into the package and adds
// them to its package.json `files`, with `"bin": {"arcade-audit": "audit.mjs"}`. Run it after
// every wasm/pack.mjs build (which rewrites package.json); running it twice changes nothing more.
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

function parseArgs(argv) {
  const pkg = argv[0];
  const at = argv.indexOf('--proofs');
  const proofs = at >= 0 ? argv[at + 1] : join(root, 'proofs-wasm', 'pkg-node');
  if (!pkg || !proofs) {
    console.error('usage: package-bin.mjs <wasm pkg dir> [--proofs <proofs pkg dir>]');
    process.exit(2);
  }
  return { pkg: resolve(pkg), proofs: resolve(proofs) };
}

/** Copies `names` from `from` into `to`; returns the names. */
function copyAll(from, to, names) {
  for (const name of names) copyFileSync(join(from, name), join(to, name));
  return names;
}

function main() {
  const { pkg, proofs } = parseArgs(process.argv.slice(2));
  const manifestPath = join(pkg, 'package.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} not found: build the wasm package first`);
  if (!existsSync(proofs)) throw new Error(`${proofs} not found: build proofs-wasm (nodejs target) first`);
  const self = basename(fileURLToPath(import.meta.url));
  const auditFiles = readdirSync(here).filter((n) => n.endsWith('.mjs') && n !== self);
  const proofFiles = readdirSync(proofs).filter((n) => n.startsWith('arcade_proofs'));
  if (!proofFiles.includes('arcade_proofs.js')) throw new Error(`${proofs} has no arcade_proofs.js`);
  const copied = [...copyAll(here, pkg, auditFiles), ...copyAll(proofs, pkg, proofFiles)];

  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.files = [...new Set([...(manifest.files ?? []), ...copied])];
  manifest.bin = { ...(manifest.bin ?? {}), 'arcade-audit': 'audit.mjs' };
  manifest.engines = { node: '>=20', ...(manifest.engines ?? {}) };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`${pkg}: bin arcade-audit, ${copied.length} files added (${copied.join(', ')})`);
}

main();
