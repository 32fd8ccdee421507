// The wasm boundary is flat: the glue (wasm/js/arcade.js) passes each field as its own argument,
// and the module (wasm/src/lib.rs) reads them by position. Its one table is the Rust signature:
// wasm-bindgen prints the parameter names into the built package (arcade_wasm.js), and this test
// holds every call the glue makes to them, argument by argument, and the order in which the
// glue joins the texts to the order of their lengths.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const glue = readFileSync(new URL("../../wasm/js/arcade.js", import.meta.url), "utf8");
const built = readFileSync(new URL("../../wasm/pkg-node/arcade_wasm.js", import.meta.url), "utf8");

/** A JavaScript name (`serverSeed`, or a member `c.rollText`) as the Rust one (`roll_text`). */
const snake = (name) => name.split(".").pop().replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The parameters wasm-bindgen printed for `name`, from the Rust signature. */
function parameters(name) {
  const found = built.match(new RegExp(`function ${name}\\(([^)]*)\\)`));
  assert.ok(found, `the built package exports ${name}`);
  return found[1].split(",").map((p) => p.trim()).filter(Boolean);
}

/** Splits `text` on the commas outside parentheses. */
function topLevel(text) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth--;
    else if (text[i] === "," && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** Every `raw.name(arguments)` the glue makes, with its arguments as written. */
function calls() {
  const found = [];
  for (const match of glue.matchAll(/raw\.(\w+)\(/g)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (depth > 0) {
      if (glue[end] === "(") depth++;
      else if (glue[end] === ")") depth--;
      end++;
    }
    const args = glue.slice(match.index + match[0].length, end - 1).replace(/\/\/.*$/gm, "");
    found.push({ name: match[1], at: match.index, args: topLevel(args) });
  }
  return found;
}

/** The parameter an argument fills, by the glue's naming: `x.length` and `length(x)` fill
 * `x_length`, `encoded(text)` fills `text`, a name fills itself. */
function fills(arg) {
  const len = arg.match(/^([\w.]+)\.length$/) ?? arg.match(/^length\(([\w.]+)\)$/);
  if (len) return `${snake(len[1])}_length`;
  const encoded = arg.match(/^encoded\((\w+)\)$/);
  if (encoded) return snake(encoded[1]);
  assert.match(arg, /^[\w.]+$/, `an argument the test can name: ${arg}`);
  return snake(arg);
}

test("every call into the module passes each field in the Rust signature's place", () => {
  const checked = calls().filter((c) => c.args.length > 0);
  const names = new Set(checked.map((c) => c.name));
  for (const name of ["verifyReceipt", "deriveRound", "verifyInclusion", "merkleRoot", "commitment"]) {
    assert.ok(names.has(name), `the glue calls ${name}`);
  }
  for (const call of checked) {
    assert.deepEqual(call.args.map(fills), parameters(call.name), call.name);
  }
});

test("the texts are joined in the order of their lengths", () => {
  const joined = calls().filter((c) => c.args.some((a) => a === "encoded(text)"));
  assert.ok(joined.length >= 2, "verifyReceipt and deriveRound join texts");
  for (const call of joined) {
    const before = glue.slice(0, call.at);
    const text = before.slice(before.lastIndexOf("const text ="));
    const statement = text.slice("const text =".length, text.indexOf(";"));
    const parts = statement.split("+").map((p) => p.trim().replace(/^\(([\w.]+) \?\? ''\)$/, "$1"));
    const lengths = parameters(call.name).filter((p) => p.endsWith("_length"));
    assert.deepEqual(parts.map((p) => `${snake(p)}_length`), lengths, call.name);
  }
});
