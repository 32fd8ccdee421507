// The package as users get it: `npm pack` (its files listed), the tarball installed into an
// empty project, and there the README's quickstart run verbatim and the example run against
// the dev stack.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { DEMO_PAYER_KEY, startStack } from './stack.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });

let stack;
let dir;
let tarball;
before(async () => {
  stack = await startStack();
  dir = mkdtempSync(join(tmpdir(), 'arcade-client-pack-'));
});
after(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The README's first ```js block, as written. */
function quickstart() {
  const readme = readFileSync(join(here, 'README.md'), 'utf8');
  const block = /```js\n([\s\S]*?)```/.exec(readme)[1];
  assert.ok(block.trimEnd().split('\n').length <= 10, 'the quickstart is at most 10 lines');
  return block;
}

test('npm pack: the built module, its types, the README, and arcade-wasm (core, proofs, shared checks) bundled', () => {
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], here));
  tarball = join(dir, packed.filename);
  const files = packed.files.map((f) => f.path).sort();
  console.log(`${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${files.length} files`);
  for (const f of packed.files) console.log(`  ${String(f.size).padStart(7)}  ${f.path}`);
  for (const file of ['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/arcade.d.ts',
    'node_modules/arcade-wasm/arcade_wasm_bg.wasm', 'node_modules/arcade-wasm/arcade_proofs_bg.wasm', 'node_modules/arcade-wasm/verdicts.mjs']) {
    assert.ok(files.includes(file), `${file} is packed`);
  }
  assert.deepEqual(files.filter((f) => /^(src|test|examples)\//.test(f) || f.endsWith('.ts') && !f.endsWith('.d.ts')), [], 'no sources or tests');
});

test('the README quickstart, run verbatim from the installed tarball against the dev stack', () => {
  assert.ok(tarball, 'packed first');
  const project = join(dir, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'quickstart', private: true, type: 'module' }));
  npm(['install', '--prefer-offline', tarball], project);
  writeFileSync(join(project, 'quickstart.mjs'), quickstart());
  const out = execFileSync('node', ['quickstart.mjs'], {
    cwd: project, encoding: 'utf8', env: { ...process.env, PAYER_KEY: DEMO_PAYER_KEY, ARCADE_URL: stack.baseUrl },
  });
  console.log(`quickstart output: ${out.trim()}`);
  assert.match(out, /^true (won|lost) \d+ Re-derived by the wasm core;/);
});

test('the example plays one round of every game and prints each proof it checked', () => {
  const out = execFileSync('node', ['examples/play-every-game.mjs', stack.baseUrl], { cwd: here, encoding: 'utf8' });
  for (const game of ['coinflip', 'dice', 'roulette', 'limbo']) assert.match(out, new RegExp(`^${game}: bet \\d+ .*verified true \\(pass\\)`, 'm'));
  for (const proof of ['commitment', 'outcome', 'Commitment', 'Receipt', 'seed batch', 'Play']) {
    assert.equal(out.split('\n').filter((line) => line.trim().startsWith(proof)).length, 4, `${proof} printed for every game`);
  }
});
