// The table of lying cases against verifiers, from what each suite observed: every suite saves
// its cells to tests/output/verdicts/<suite>.json; `node tests/audit-node/table.mjs [out]`
// prints the whole table (and writes it to `out`).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { VERIFIERS, cell, matches } from './cases.mjs';

const dir = fileURLToPath(new URL('../output/verdicts/', import.meta.url));

/** Saves a suite's cells: `[{case, title, verifier, observed, expected}]`. */
export function saveCells(suite, cells) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${suite}.json`), `${JSON.stringify(cells, null, 2)}\n`);
}

/** The table as text, from every suite's cells saved so far (or `cells` given). */
export function table(cells = loadCells()) {
  const rows = new Map();
  for (const c of cells) {
    const row = rows.get(c.case) ?? { title: c.title, cells: {} };
    row.cells[c.verifier] = `${cell(c.observed)}${c.expected ? (matches(c.observed, c.expected) ? '' : `  ✘ expected ${cell(c.expected)}`) : ''}`;
    rows.set(c.case, row);
  }
  const order = [...rows.keys()].sort((a, b) => parseFloat(a) - parseFloat(b) || a.localeCompare(b));
  const width = Math.max(...[...rows.values()].map((r) => r.title.length), 4) + 6;
  const w = (v) => Math.max(v.length, ...order.map((k) => (rows.get(k).cells[v] ?? '—').length)) + 2;
  const widths = Object.fromEntries(VERIFIERS.map((v) => [v, w(v)]));
  const line = (first, cells) => first.padEnd(width) + VERIFIERS.map((v) => (cells[v] ?? '—').padEnd(widths[v])).join('');
  return [
    line('case', Object.fromEntries(VERIFIERS.map((v) => [v, v]))),
    ...order.map((k) => line(`${k}. ${rows.get(k).title}`, rows.get(k).cells)),
  ].join('\n');
}

function loadCells() {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = table();
  console.log(text);
  if (process.argv[2]) writeFileSync(process.argv[2], `${text}\n`);
}
