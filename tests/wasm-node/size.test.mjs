// The module's budget: 50 KiB raw for the core of four games (the page loads it on every cold
// visit). Both builds carry the same .wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const BUDGET = 50 * 1024;

test('the wasm module stays within 50 KiB', () => {
  for (const dir of ['pkg-web', 'pkg-node']) {
    const bytes = readFileSync(new URL(`../../wasm/${dir}/arcade_wasm_bg.wasm`, import.meta.url)).length;
    assert.ok(bytes <= BUDGET, `${dir}: ${bytes} bytes, over ${BUDGET}`);
  }
});
