// Tampered receipts fail the right check; bad input throws a real Error with a stable code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { commitment, verify, deriveDice, deriveRoulette, deriveCoinflip, version } from "arcade-wasm";
import { cases } from "./vectors.mjs";
import { sha256Hex } from "./independent.mjs";

const clone = (v) => structuredClone(v);
const dice = cases.find((c) => c.receipt.game === "dice").receipt;
const roulette = cases.find((c) => c.receipt.game === "roulette").receipt;

function throwsCode(fn, code) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof Error, "a real Error");
    assert.equal(e.code, code, e.message);
    assert.ok(e.message.length > 0);
    return true;
  });
}

test("commitment is the SHA-256 of the seed's text", () => {
  const seed = dice.server_seed;
  assert.equal(commitment(seed), sha256Hex(seed));
  throwsCode(() => commitment("abc"), "invalid_server_seed");
  throwsCode(() => commitment(seed.toUpperCase()), "invalid_server_seed");
});

test("tampering fails the matching check, loudly but without throwing", () => {
  const cases = [
    [["payout"], dice.payout + 1, "payout"],
    [["profit"], dice.profit - 1, "payout"],
    [["commitment"], "ab".repeat(32), "commitment"],
    [["result", "roll_hundredths"], (dice.result.roll_hundredths + 1) % 10001, "outcome"],
    [["result", "win_chance"], "50.0000%", "outcome"],
    [["result", "pocket"], (0 + 1) % 37, "outcome"],
  ];
  for (const [path, value, check] of cases) {
    const base = path[1] === "pocket" ? roulette : dice;
    const receipt = clone(base);
    let at = receipt;
    for (const k of path.slice(0, -1)) at = at[k];
    if (path.at(-1) === "pocket" && at.pocket === value) continue;
    at[path.at(-1)] = value;
    const report = verify(receipt);
    assert.equal(report.verified, false, path.join("."));
    assert.equal(report.checks[check], false, path.join("."));
    assert.ok(report.mismatches.some((m) => m.check === check && m.field === path.join(".")));
  }
});

test("malformed receipts throw with a stable code", () => {
  throwsCode(() => verify({}), "invalid_input");
  throwsCode(() => verify(null), "invalid_input");
  throwsCode(() => verify({ ...clone(dice), fairness_version: 2 }), "unsupported_version");
  throwsCode(() => verify({ ...clone(dice), fairness_version: undefined }), "invalid_receipt");
  throwsCode(() => verify({ ...clone(dice), server_seed: "00" }), "invalid_server_seed");
  throwsCode(() => verify({ ...clone(dice), client_seed: "a\u0000b" }), "invalid_client_seed");
  throwsCode(() => verify({ ...clone(dice), params: { target: 100 } }), "invalid_call");
  throwsCode(() => verify({ ...clone(dice), game: "poker" }), "invalid_input");
  throwsCode(() => verify({ ...clone(dice), wager: 0 }), "invalid_receipt");
});

test("amounts cross as checked integers, never silently truncated", () => {
  for (const wager of [1.5, -1, 2 ** 53, Number.NaN, "10"]) {
    throwsCode(() => verify({ ...clone(dice), wager }), "invalid_input");
  }
  throwsCode(() => verify({ ...clone(dice), payout: 2.5 }), "invalid_input");
});

test("derive functions validate their calls", () => {
  const base = { server_seed: dice.server_seed, client_seed: "c", wager: 1 };
  throwsCode(() => deriveRoulette({ ...base, params: { bet: "straight" } }), "invalid_call");
  throwsCode(() => deriveRoulette({ ...base, params: { bet: "red", number: 3 } }), "invalid_call");
  throwsCode(() => deriveDice({ ...base, params: { target: 0 } }), "invalid_call");
  throwsCode(() => deriveCoinflip({ ...base, params: { call: "edge" } }), "invalid_input");
  throwsCode(() => deriveCoinflip({ ...base, client_seed: "x".repeat(257), params: { call: "heads" } }), "invalid_client_seed");
  const d = deriveDice({ ...base, params: { target: 50 } });
  assert.equal(d.params.direction, "under", "direction defaults to under");
  assert.equal(d.nonce, 0, "nonce defaults to 0");
});

test("version names the package and the fairness version", () => {
  const v = version();
  assert.equal(v.fairness_version, 1);
  assert.match(v.package, /^\d+\.\d+\.\d+/);
});
