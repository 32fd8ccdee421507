// Every golden vector through the installed wasm package, and against an independent
// re-derivation written from the specification.
import { test } from "node:test";
import assert from "node:assert/strict";
import { verify, deriveCoinflip, deriveDice, deriveRoulette } from "arcade-wasm";
import { cases } from "./vectors.mjs";
import { rederive } from "./independent.mjs";

const DERIVE = { coinflip: deriveCoinflip, dice: deriveDice, roulette: deriveRoulette };

test("the vectors cover what they must", () => {
  assert.ok(cases.length >= 200, `${cases.length} cases`);
  const games = new Set(cases.map((c) => c.receipt.game));
  assert.deepEqual([...games].sort(), ["coinflip", "dice", "roulette"]);
  const bets = new Set(cases.filter((c) => c.receipt.game === "roulette").map((c) => c.receipt.params.bet));
  assert.equal(bets.size, 13);
  const rolls = new Set(cases.filter((c) => c.receipt.game === "dice").map((c) => c.receipt.result.roll_hundredths));
  assert.ok(rolls.has(0) && rolls.has(10000), "rolls 0.00 and 100.00");
  assert.ok(cases.some((c) => c.receipt.result.pocket === 0), "pocket 0");
});

test("every vector verifies in wasm, step by step", () => {
  for (const c of cases) {
    const report = verify(c.receipt);
    assert.equal(report.verified, true, c.name);
    assert.deepEqual(report.checks, { commitment: true, outcome: true, payout: true }, c.name);
    assert.deepEqual(report.mismatches, [], c.name);
    assert.equal(report.derived.commitment, c.receipt.commitment, c.name);
    assert.deepEqual(report.derived.result, c.receipt.result, c.name);
    assert.equal(report.derived.payout, c.receipt.payout, c.name);
    assert.equal(report.derived.profit, c.receipt.profit, c.name);
    assert.equal(report.trace.hmac_message, c.expect.hmac_message, c.name);
    assert.equal(report.trace.block0, c.expect.block0, c.name);
    assert.equal(report.trace.u0, c.expect.u0, c.name);
    assert.equal(report.trace.u1, c.expect.u1, c.name);
    assert.deepEqual(
      [report.trace.exact_return.numerator, report.trace.exact_return.denominator],
      c.expect.exact_return,
      c.name,
    );
  }
});

test("every vector agrees with an independent re-derivation (node:crypto + BigInt)", () => {
  for (const c of cases) {
    const r = c.receipt;
    const mine = rederive(r);
    assert.equal(mine.commitment, r.commitment, c.name);
    assert.equal(mine.block0, c.expect.block0, c.name);
    for (const [k, v] of Object.entries(mine.result)) assert.equal(r.result[k], v, `${c.name}: ${k}`);
    assert.deepEqual([mine.won, mine.payout, mine.profit], [r.won, r.payout, r.profit], c.name);
  }
});

test("the per-game derive functions settle every vector the same way", () => {
  for (const c of cases) {
    const r = c.receipt;
    const d = DERIVE[r.game]({
      server_seed: r.server_seed,
      client_seed: r.client_seed,
      nonce: r.nonce,
      wager: r.wager,
      params: r.params,
    });
    for (const key of ["game", "commitment", "params", "result", "won", "payout", "profit", "wager", "nonce"]) {
      assert.deepEqual(d[key], r[key], `${c.name}: ${key}`);
    }
    assert.equal(d.trace.block0, c.expect.block0, c.name);
  }
});
