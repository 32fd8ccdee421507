// The documents point at what exists: every Markdown link of the README, docs/ (but the
// served documents), deploy/, tests/ and the clients' READMEs reaches a file of the repository (and its #anchor a heading
// of that file), and every repository path a document names in backticks (`server/src/…`)
// is a file or folder of the repository (or what a build writes, which it ignores). A renamed file or heading fails here, not in a
// reader's hands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The documents the server serves: their links are site paths, followed on the site by
 * tests/api-node/served-documents.test.mjs. */
const SERVED = ['docs/fairness.md', 'docs/proofs.md', 'docs/vectors.md'];

/** The documents held to the repository. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)
    .filter((name) => !SERVED.includes(name)),
  'deploy/README.md',
  'tests/README.md',
  'clients/npm/README.md',
  'clients/python/README.md',
];

/** The repository's top folders: a backticked path starting with one names a repository file. */
const TOP = readdirSync(root).filter((name) => !name.startsWith('.') && statSync(join(root, name)).isDirectory())
  .filter((name) => !['node_modules', 'target'].includes(name));

/** The repository's tracked files, and every folder that holds one. */
const TRACKED = (() => {
  const paths = new Set();
  for (const file of execFileSync('git', ['-C', root, 'ls-files', '-z'], { encoding: 'utf8' }).split('\0')) {
    const parts = file.split('/');
    for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('/'));
  }
  return paths;
})();

/** Whether `path` names a file or folder of the repository, or what a build or a test run
 * writes (a path the repository ignores: `wasm/pkg-web`, `tests/output/`). */
function named(path) {
  const bare = path.replace(/\/$/, '');
  if (TRACKED.has(bare)) return true;
  // As a file, or as a folder not made yet (a pattern like `/wasm/pkg*/` matches folders only).
  try {
    execFileSync('git', ['-C', root, 'check-ignore', '--no-index', bare, `${bare}/a-file`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

/** The text outside fenced code blocks. */
function prose(text) {
  return text.split(/^```.*$/m).filter((_, i) => i % 2 === 0).join('\n');
}

function anchors(file) {
  const seen = new Map();
  const out = new Set();
  for (const line of prose(readFileSync(file, 'utf8')).split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

for (const document of DOCUMENTS) {
  const file = join(root, document);
  test(`${document}: every link and named path exists`, () => {
    assert.ok(existsSync(file), `${document} exists`);
    const text = prose(readFileSync(file, 'utf8'));
    const broken = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // http(s), mailto: not followed offline
      const [path, anchor] = target.split('#');
      const linked = path === '' ? file : resolve(dirname(file), path);
      if (!named(relative(root, linked))) {
        broken.push(`link ${target}: no ${relative(root, linked)}`);
      } else if (anchor && linked.endsWith('.md') && !anchors(linked).has(anchor)) {
        broken.push(`link ${target}: no heading #${anchor} in ${relative(root, linked)}`);
      }
    }
    for (const [, quoted] of text.matchAll(/`([^`\s]+)`/g)) {
      const path = quoted.replace(/[.,:;]+$/, '');
      if (!TOP.includes(path.split('/')[0]) || !path.includes('/')) continue;
      if (/[{}<>*…]/.test(path)) continue; // a pattern, not a path
      if (!named(path.split(/[#:(]/)[0])) broken.push(`path \`${path}\`: no such file`);
    }
    assert.deepEqual(broken, [], `${document}:\n${broken.join('\n')}`);
  });
}
