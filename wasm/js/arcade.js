// arcade-wasm's entry: verify receipts and re-derive rounds with the fairness core compiled to
// wasm. This glue reads the objects and builds the reports; the module (arcade_wasm.js and
// its .wasm, from wasm-bindgen) takes strings and numbers and decides everything: every
// check, outcome, payout and text of a report comes from the core. See wasm/src/lib.rs for
// the flat form of each answer.
//
// `wasm/js/package.mjs` copies this file, fields.js, slots.js and games.js into each built package: as they are
// for `web`, without the web-only line for `bundler`, as CommonJS for `nodejs`.
import * as raw from './arcade_wasm.js';
import {
  boolean,
  error,
  i64,
  invalid,
  kind,
  length,
  object,
  objectField,
  optionalInteger,
  optionalString,
  string,
  u64,
  u64OrZero,
  wrong,
} from './fields.js';
import * as described from './games.js';
import { claimedParams, claimedResult, gameOf, keysOf } from './slots.js';

// web build: instantiate the module first (`await init()`, or `initSync({ module })`).
export { default, initSync } from './arcade_wasm.js';

/** An answer of the module, or its failure thrown. */
function answer(out) {
  if (out.charCodeAt(0) === 1) {
    const at = out.indexOf('\n');
    throw error(out.slice(1, at), out.slice(at + 1));
  }
  return out;
}

// The string fields of a call go into the module's memory as one UTF-8 text, in one step.
const encoder = new TextEncoder();
let bytes = new Uint8Array(1024);

function encoded(text) {
  // A UTF-16 code unit takes at most 3 bytes of UTF-8.
  if (text.length * 3 > bytes.length) bytes = new Uint8Array(text.length * 3);
  return bytes.subarray(0, encoder.encodeInto(text, bytes).written);
}

// The numbers of an answer: a view of the module's memory, remade when the memory grows.
let numbers;

function slots() {
  if (numbers === undefined || numbers.byteLength === 0) {
    numbers = new Float64Array(raw.wasmMemory().buffer, raw.numbers(), 64);
  }
  return numbers;
}

// Slots: flags, payout, profit, u0, u1, the result's number, a count (mismatches) or the call's
// number, then the ends of the texts. Flags: bit 0 verified, bits 1-3 the checks commitment,
// outcome and payout, bit 4 won, bit 5 the bonus chip.
const TEXTS = 7;
// The texts' slots: the commitment and the trace's nine (to the number drawn), then the game's.
const GAME_TEXTS = TEXTS + 10;

function verifyOne(receipt) {
  const r = object(receipt, 'receipt');
  const game = string(r.game, r, 'game');
  const shape = gameOf(game);
  const fairnessVersion = optionalInteger(r.fairness_version, r, 'fairness_version', false);
  const commitment = string(r.commitment, r, 'commitment');
  const serverSeed = string(r.server_seed, r, 'server_seed');
  const clientSeed = string(r.client_seed, r, 'client_seed');
  const nonce = u64OrZero(r.nonce, r, 'nonce');
  const wager = u64(r.wager, r, 'wager');
  const keys = keysOf(shape);
  const p = claimedParams(r, keys);
  const c = claimedResult(r, keys);
  const won = boolean(r.won, r, 'won');
  const payout = u64(r.payout, r, 'payout');
  const profit = i64(r.profit, r, 'profit');
  const text =
    game + commitment + serverSeed + clientSeed + (p.call ?? '') + (p.direction ?? '') + (p.bet ?? '') +
    (c.outcome ?? '') + (c.winChance ?? '') + (c.multiplier ?? '') + (c.color ?? '') + (c.rollText ?? '');
  const out = answer(
    raw.verifyReceipt(
      encoded(text),
      // The lengths of the texts, in the text's order (-1: absent).
      game.length, commitment.length, serverSeed.length, clientSeed.length,
      length(p.call), length(p.direction), length(p.bet),
      length(c.outcome), length(c.winChance), length(c.multiplier), length(c.color), length(c.rollText),
      fairnessVersion, nonce, wager, p.target, p.number,
      c.roll, c.rollHundredths, c.pocket, won, payout, profit,
    ),
  );
  return report(out, shape, serverSeed);
}

/** The games the core knows, in its order: the one list the page's forms and the audit use. */
export function games() {
  return raw.games().split(',');
}

/**
 * Every game as the core describes it, in its order: `[{name, summary, outcomes, call, params,
 * result, signed}]` (see arcade.d.ts). The one description the page, the audit and the client
 * libraries read or are tested against; data the core writes beside the module (games.js).
 */
export function gameDescriptions() {
  return described.gameDescriptions();
}

function trace(serverSeed, out, n) {
  return {
    hmac_key: serverSeed,
    hmac_message: out.slice(n[7], n[8]),
    block0: out.slice(n[8], n[9]),
    u0: n[3],
    u1: n[4],
    exact_return: {
      numerator: out.slice(n[9], n[10]),
      denominator: out.slice(n[10], n[11]),
      floor: out.slice(n[11], n[12]),
      remainder: out.slice(n[12], n[13]),
      bonus_chip: (n[0] & 32) !== 0,
    },
    // The call's winning outcomes W of the game's N, and the number u0 maps to: the core's.
    winning_count: out.slice(n[13], n[14]),
    outcomes: out.slice(n[14], n[15]),
    drawn: out.slice(n[15], n[16]),
  };
}

function report(out, shape, serverSeed) {
  const n = slots();
  const flags = n[0];
  const mismatches = [];
  const count = n[6];
  for (let i = 0, j = GAME_TEXTS + shape.texts; i < count; i++, j += 4) {
    mismatches.push({
      check: out.slice(n[j - 1], n[j]),
      field: out.slice(n[j], n[j + 1]),
      derived: out.slice(n[j + 1], n[j + 2]),
      claimed: out.slice(n[j + 2], n[j + 3]),
    });
  }
  return {
    verified: (flags & 1) !== 0,
    checks: { commitment: (flags & 2) !== 0, outcome: (flags & 4) !== 0, payout: (flags & 8) !== 0 },
    derived: {
      commitment: out.slice(0, n[TEXTS]),
      result: shape.result(out, n, GAME_TEXTS),
      won: (flags & 16) !== 0,
      payout: n[1],
      profit: n[2],
    },
    trace: trace(serverSeed, out, n),
    mismatches,
  };
}

/**
 * Re-derives a receipt and reports each check: `{verified, checks: {commitment, outcome,
 * payout}, derived, trace, mismatches}`. A tampered receipt is not an error: it comes back with
 * `verified: false` and the differing fields in `mismatches`.
 */
export function verify(receipt) {
  return verifyOne(receipt);
}

function atReceipt(e, index, line) {
  e.index = index;
  if (line !== undefined) e.line = line;
  e.message = `${line === undefined ? `receipt ${index}` : `line ${line}`}: ${e.message}`;
  return e;
}

/**
 * Verifies many receipts: an array of receipt objects, or a string of JSON lines (one receipt
 * per line; blank lines are skipped). Returns the reports in order, each exactly what `verify`
 * returns for that receipt. A receipt that cannot be verified at all (a line that is not
 * JSON, a malformed receipt) throws `verify`'s `Error`, with the same `code`, its position as
 * `index` (0-based, among the receipts) and for JSON lines its 1-based `line`.
 */
export function verifyMany(receipts) {
  const reports = [];
  if (typeof receipts === 'string') {
    let index = 0;
    let line = 0;
    for (let start = 0; start <= receipts.length; line++) {
      let end = receipts.indexOf('\n', start);
      if (end < 0) end = receipts.length;
      const text = receipts.slice(start, end);
      start = end + 1;
      if (text.trim() === '') continue;
      let receipt;
      try {
        receipt = JSON.parse(text);
      } catch (e) {
        throw atReceipt(invalid(`not JSON: ${e.message}`), index, line + 1);
      }
      try {
        reports.push(verifyOne(receipt));
      } catch (e) {
        throw atReceipt(e, index, line + 1);
      }
      index++;
    }
    return reports;
  }
  if (!Array.isArray(receipts)) {
    throw invalid(`verifyMany takes an array of receipts or a string of JSON lines, not ${kind(receipts)}`);
  }
  for (let index = 0; index < receipts.length; index++) {
    try {
      reports.push(verifyOne(receipts[index]));
    } catch (e) {
      throw atReceipt(e, index);
    }
  }
  return reports;
}

/** The commitment of a server seed: the lowercase hex SHA-256 of its 64 ASCII characters. */
export function commitment(serverSeed) {
  if (typeof serverSeed !== 'string') throw invalid(`server_seed: invalid type: ${kind(serverSeed)}, expected a string`);
  return answer(raw.commitment(serverSeed));
}

/**
 * Settles a round of `game` (one of `games()`) from its seeds: `{server_seed, client_seed,
 * nonce?, wager, params}`, the params as that game's receipt has them. Another game is refused.
 */
export function derive(game, input) {
  const shape = gameOf(game);
  const r = object(input, 'input');
  const serverSeed = string(r.server_seed, r, 'server_seed');
  const clientSeed = string(r.client_seed, r, 'client_seed');
  const nonce = u64OrZero(r.nonce, r, 'nonce');
  const wager = u64(r.wager, r, 'wager');
  const p = objectField(r.params, r, 'params');
  const call = optionalString(p.call, p, 'call');
  const targetKey = keysOf(shape).target;
  const target = optionalInteger(p[targetKey], p, targetKey, false);
  const direction = optionalString(p.direction, p, 'direction');
  const bet = optionalString(p.bet, p, 'bet');
  const number = optionalInteger(p.number, p, 'number', false);
  const text = serverSeed + clientSeed + (call ?? '') + (direction ?? '') + (bet ?? '');
  const out = answer(
    raw.deriveRound(
      game,
      encoded(text),
      serverSeed.length,
      clientSeed.length,
      length(call),
      length(direction),
      length(bet),
      nonce,
      wager,
      target,
      number,
    ),
  );
  const n = slots();
  const at = GAME_TEXTS + shape.texts;
  const params = shape.params(out.slice(n[at - 1], n[at]), n);
  return {
    game,
    fairness_version: raw.fairnessVersion(),
    commitment: out.slice(0, n[TEXTS]),
    server_seed: serverSeed,
    client_seed: clientSeed,
    nonce,
    wager,
    params,
    result: shape.result(out, n, GAME_TEXTS),
    won: (n[0] & 16) !== 0,
    payout: n[1],
    profit: n[2],
    trace: trace(serverSeed, out, n),
  };
}

/** Settles a coinflip from its seeds: `{server_seed, client_seed, nonce?, wager, params: {call}}`. */
export function deriveCoinflip(input) {
  return derive('coinflip', input);
}

/** Settles a dice round: `params: {target: 1..99, direction?: "under" | "over"}`. */
export function deriveDice(input) {
  return derive('dice', input);
}

/** Settles a roulette spin: `params: {bet, number?}` (`number` for straight bets only). */
export function deriveRoulette(input) {
  return derive('roulette', input);
}

/** Strings for the module: their text and UTF-16 lengths. */
function strings(values) {
  return [encoded(values.join('')), Float64Array.from(values, (value) => value.length)];
}

function isStringArray(value) {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Whether a commitment is leaf `index` of the batch whose root is `merkle_root` (RFC 9162):
 * `{commitment, index, size, audit_path, merkle_root}` → boolean.
 */
export function verifyInclusion(input) {
  const r = object(input, 'input');
  const commitment = string(r.commitment, r, 'commitment');
  const index = u64(r.index, r, 'index');
  const size = u64(r.size, r, 'size');
  const path = r.audit_path;
  if (!isStringArray(path)) throw wrong(r, 'audit_path', path, 'an array of strings');
  const root = string(r.merkle_root, r, 'merkle_root');
  const [text, lengths] = strings([commitment, root, ...path]);
  return answer(raw.verifyInclusion(text, lengths, index, size)) === '1';
}

/** The RFC 9162 root (hex) over commitments given in index order. */
export function merkleRoot(commitments) {
  if (!isStringArray(commitments)) {
    throw invalid(`commitments: invalid type: ${kind(commitments)}, expected an array of strings`);
  }
  const [text, lengths] = strings(commitments);
  return answer(raw.merkleRoot(text, lengths));
}

/** The package version and the fairness version it implements: `{package, fairness_version}`. */
export function version() {
  return { package: raw.packageVersion(), fairness_version: raw.fairnessVersion() };
}
