// Limbo's golden vectors (tests/vectors/fairness-v1-limbo.json) through the installed wasm
// package, and against the independent re-derivation written from the specification.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { verify, derive } from "arcade-wasm";
import { rederive, limboDraw } from "./independent.mjs";

const doc = JSON.parse(readFileSync(new URL("../vectors/fairness-v1-limbo.json", import.meta.url), "utf8"));

test("limbo's vectors cover the targets and draws they must", () => {
  assert.ok(doc.cases.length + doc.draws.length >= 60);
  const targets = new Set(doc.cases.map((c) => c.receipt.params.target_hundredths));
  for (const t of [101, 200, 100000000]) assert.ok(targets.has(t), `target ${t}`);
  const u0s = new Set(doc.draws.map((d) => d.u0));
  assert.ok(u0s.has(0) && u0s.has(1));
});

test("every limbo round verifies in wasm and derives the same receipt", () => {
  for (const c of doc.cases) {
    const r = c.receipt;
    const report = verify(r);
    assert.equal(report.verified, true, c.name);
    assert.deepEqual(report.derived.result, r.result, c.name);
    assert.equal(report.trace.u0, c.expect.u0, c.name);
    assert.deepEqual(
      [report.trace.exact_return.numerator, report.trace.exact_return.denominator],
      c.expect.exact_return,
      c.name,
    );
    const d = derive("limbo", { server_seed: r.server_seed, client_seed: r.client_seed, wager: r.wager, params: r.params });
    for (const key of ["game", "params", "result", "won", "payout", "profit"]) assert.deepEqual(d[key], r[key], `${c.name}: ${key}`);
    const tampered = { ...r, result: { ...r.result, result_hundredths: r.result.result_hundredths === 100 ? 101 : r.result.result_hundredths - 1 } };
    assert.equal(verify(tampered).checks.outcome, false, c.name);
  }
});

test("every limbo round and draw agrees with the independent re-derivation", () => {
  for (const c of doc.cases) {
    const mine = rederive(c.receipt);
    assert.equal(mine.result.result_hundredths, c.receipt.result.result_hundredths, c.name);
    assert.deepEqual([mine.won, mine.payout, mine.profit], [c.receipt.won, c.receipt.payout, c.receipt.profit], c.name);
  }
  for (const d of doc.draws) {
    const mine = limboDraw(BigInt(d.u0), BigInt(d.target_hundredths));
    assert.equal(Number(mine.result), d.result_hundredths, d.name);
    assert.equal(mine.won, d.won, d.name);
    assert.equal(Number(mine.winningCount), d.winning_count, d.name);
    assert.deepEqual(mine.perChip.map(String), d.exact_return_per_chip, d.name);
  }
});
