// Every report of the wasm package, from both builds, equals the native core's report for the
// same receipt (native.mjs: every golden vector, and tampered and malformed copies of some):
// the same JSON text after a parse (keys in the same order, the same values, the same types),
// and the same error code and message where the core refuses a receipt. And verifyMany, over an
// array or a string of JSON lines, returns exactly what verify returns one receipt at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './builds.mjs';
import { native } from './native.mjs';
import { cases } from './vectors.mjs';

/** Whether a native report holds an integer JavaScript cannot hold exactly. */
function unsafe(value) {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  return typeof value === 'object' && value !== null && Object.values(value).some(unsafe);
}

test('the native reports cover every vector, mismatches of every kind and refusals', () => {
  const reports = native.filter((n) => n.report);
  assert.ok(reports.filter((n) => n.report.verified).length >= cases.length);
  const fields = new Set(reports.flatMap((n) => n.report.mismatches.map((m) => m.field)));
  for (const field of ['commitment', 'won', 'payout', 'profit', 'result.outcome', 'result.roll', 'result.roll_hundredths', 'result.win_chance', 'result.multiplier', 'result.pocket', 'result.color']) {
    assert.ok(fields.has(field), field);
  }
  const codes = new Set(native.filter((n) => n.error).map((n) => n.error.code));
  assert.deepEqual([...codes].sort(), ['invalid_call', 'invalid_client_seed', 'invalid_receipt', 'invalid_server_seed', 'unsupported_version']);
  assert.ok(reports.some((n) => unsafe(n.report)), 'a payout past 2^53');
});

for (const [name, wasm] of builds) {
  test(`${name}: every report equals the native core's, as JSON text`, () => {
    for (const n of native) {
      const verify = () => wasm.verify(structuredClone(n.receipt));
      if (n.error) {
        assert.throws(verify, (e) => e instanceof Error && e.code === n.error.code && e.message === n.error.message, n.name);
      } else if (unsafe(n.report)) {
        // A report never shows a rounded amount: the module refuses it.
        assert.throws(verify, (e) => e instanceof Error && e.code === 'invalid_input' && /JavaScript number/.test(e.message), n.name);
      } else {
        const report = verify();
        assert.equal(JSON.stringify(report), JSON.stringify(n.report), n.name);
        assert.deepEqual(report, n.report, n.name);
      }
    }
  });

  test(`${name}: verifyMany over an array and over JSON lines returns verify's reports`, () => {
    const receipts = native.filter((n) => n.report && !unsafe(n.report)).map((n) => n.receipt);
    const one = receipts.map((r) => wasm.verify(r));
    assert.deepEqual(wasm.verifyMany(receipts), one);
    // As JSON lines, each receipt is what JSON.parse makes of its line (-0 becomes 0).
    const texts = receipts.map((r) => JSON.stringify(r));
    const parsed = texts.map((t) => wasm.verify(JSON.parse(t)));
    assert.deepEqual(wasm.verifyMany(texts.join('\n')), parsed);
    // CRLF, blank lines and a final newline are fine.
    assert.deepEqual(wasm.verifyMany(`\n${texts.map((t) => `${t}\r\n`).join('\n')}\n`), parsed);
    assert.deepEqual(wasm.verifyMany([]), []);
    assert.deepEqual(wasm.verifyMany(''), []);
  });

  test(`${name}: verifyMany throws verify's error with the receipt's index and line`, () => {
    const good = cases.slice(0, 3).map((c) => c.receipt);
    const bad = { ...good[1], client_seed: '' };
    const thrown = (fn) => {
      try {
        fn();
      } catch (e) {
        return e;
      }
      assert.fail('did not throw');
    };
    let e = thrown(() => wasm.verifyMany([good[0], bad, good[2]]));
    assert.ok(e instanceof Error);
    assert.deepEqual([e.code, e.index, e.line], ['invalid_client_seed', 1, undefined]);
    assert.match(e.message, /^receipt 1: client seed must not be empty$/);

    const lines = ['', JSON.stringify(good[0]), '', JSON.stringify(bad), JSON.stringify(good[2])].join('\n');
    e = thrown(() => wasm.verifyMany(lines));
    assert.deepEqual([e.code, e.index, e.line], ['invalid_client_seed', 1, 4]);
    assert.match(e.message, /^line 4: client seed must not be empty$/);

    e = thrown(() => wasm.verifyMany(`${JSON.stringify(good[0])}\n{"game": "dice"\n`));
    assert.deepEqual([e.code, e.index, e.line], ['invalid_input', 1, 2]);
    assert.match(e.message, /^line 2: not JSON: /);

    e = thrown(() => wasm.verifyMany([good[0], null]));
    assert.deepEqual([e.code, e.index], ['invalid_input', 1]);
    e = thrown(() => wasm.verifyMany(42));
    assert.deepEqual([e.code, e.index], ['invalid_input', undefined]);
  });
}
