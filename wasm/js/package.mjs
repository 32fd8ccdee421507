#!/usr/bin/env node
// Makes a build of arcade-wasm (wasm/pack.mjs) a package whose entry is the glue:
//   node wasm/js/package.mjs <pkg dir> <nodejs|web|bundler>
// copies js/arcade.js, js/fields.js, js/slots.js and js/games.js (as CommonJS for the nodejs target) and js/arcade.d.ts
// into the package and points package.json's main, module and types at them. wasm/build.sh
// runs it after every wasm/pack.mjs build (which rewrites package.json); running it twice changes
// nothing more.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// The glue's files: the entry, the field readers and each game's slots it imports, and the
// games' descriptions.
const GLUE = ['arcade.js', 'fields.js', 'slots.js', 'games.js'];
// The web target's instantiation, and the comment line above it.
const WEB_ONLY = /^\/\/ web build:.*\nexport \{ default, initSync \} from '\.\/arcade_wasm\.js';\n/m;
const WEB_ONLY_TYPES = /^\/\/ web build:[^\n]*\n(?:(?!\/\/ end of web build)[^\n]*\n)*\/\/ end of web build\n/m;

/** Writes `text` to `path` by renaming a file written beside it: a reader sees the old or the new. */
function replaceFile(path, text) {
  writeFileSync(`${path}.tmp-${process.pid}`, text);
  renameSync(`${path}.tmp-${process.pid}`, path);
}

function replaceOnce(text, pattern, replacement, what) {
  const out = text.replace(pattern, replacement);
  if (out === text) throw new Error(`js/arcade.js: ${what} not found`);
  return out;
}

/** A file of the glue as CommonJS: `require` for its imports, `module.exports` for its exports. */
function commonJs(source, file) {
  let out = source.replace(/^import \* as (\w+) from '([^']+)';$/gm, "const $1 = require('$2');");
  out = out.replace(/^import \{([^}]+)\} from '([^']+)';$/gm, "const {$1} = require('$2');");
  const names = [];
  out = out.replace(/^export function (\w+)/gm, (_, name) => {
    names.push(name);
    return `function ${name}`;
  });
  if (/^(?:export|import) /m.test(out)) throw new Error(`js/${file}: an export or import the CommonJS rewrite does not handle`);
  return `'use strict';\n${out}\nmodule.exports = { ${names.join(', ')} };\n`;
}

function main() {
  const [dir, target] = process.argv.slice(2);
  if (!dir || !['nodejs', 'web', 'bundler'].includes(target)) {
    console.error('usage: package.mjs <pkg dir> <nodejs|web|bundler>');
    process.exit(2);
  }
  const pkg = resolve(dir);
  const types = readFileSync(join(here, 'arcade.d.ts'), 'utf8');
  const web = target === 'web';
  for (const file of GLUE) {
    let source = readFileSync(join(here, file), 'utf8');
    if (file === 'arcade.js' && !web) source = replaceOnce(source, WEB_ONLY, '', 'the web-only export');
    replaceFile(join(pkg, file), target === 'nodejs' ? commonJs(source, file) : source);
  }
  writeFileSync(join(pkg, 'arcade.d.ts'), web ? types : replaceOnce(types, WEB_ONLY_TYPES, '', 'the web-only types'));

  const manifestPath = join(pkg, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.files = [...new Set([...(manifest.files ?? []), ...GLUE, 'arcade.d.ts'])];
  manifest.main = 'arcade.js';
  if (target !== 'nodejs') manifest.module = 'arcade.js';
  manifest.types = 'arcade.d.ts';
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`${pkg}: entry arcade.js (${target})`);
}

main();
