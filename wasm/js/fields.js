// Reading a call's fields as the module needs them (wasm/js/arcade.js passes them on), and the
// errors every function throws. `wasm/js/package.mjs` copies this file beside arcade.js into
// each built package (as CommonJS for `nodejs`).

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** The `Error` every function throws, with its stable `code`. */
export function error(code, message) {
  return Object.assign(new Error(message), { code });
}

export function invalid(message) {
  return error('invalid_input', message);
}

// Reading values as the module needs them, by serde-wasm-bindgen's rules: a struct is any
// object; an absent, undefined or null optional field is none; integers are safe integers (or
// BigInts within them, for 64-bit fields), never rounded. Each reader has a fast path; the slow
// paths work out the error.

export function kind(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `string ${JSON.stringify(value)}` : `${typeof value} ${String(value)}`;
}

/** The error for field `key` of `parent`: missing, or of the wrong type. */
export function wrong(parent, key, value, expected) {
  if (value === undefined && !(key in parent)) return invalid(`missing field \`${key}\``);
  return invalid(`${key}: invalid type: ${kind(value)}, expected ${expected}`);
}

export function object(value, key) {
  if (typeof value === 'object' && value !== null) return value;
  throw invalid(`${key}: invalid type: ${kind(value)}, expected an object`);
}

// Each reader takes the field's value (read where the field is named, which is fast) and, for
// an error, the object and the key it came from.

export function objectField(value, parent, key) {
  if (typeof value === 'object' && value !== null) return value;
  throw wrong(parent, key, value, 'an object');
}

export function string(value, parent, key) {
  if (typeof value === 'string') return value;
  throw wrong(parent, key, value, 'a string');
}

export function optionalString(value, parent, key) {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return undefined;
  throw wrong(parent, key, value, 'a string');
}

/** A BigInt within the safe integers, as a number (64-bit fields take them). */
function fromBigInt(value, signed) {
  if (typeof value === 'bigint' && value <= MAX_SAFE && value >= (signed ? -MAX_SAFE : 0)) return Number(value);
  return undefined;
}

export function u64(value, parent, key) {
  if (Number.isSafeInteger(value) && value >= 0) return value;
  const n = fromBigInt(value, false);
  if (n !== undefined) return n;
  throw wrong(parent, key, value, 'a non-negative safe integer');
}

export function i64(value, parent, key) {
  if (Number.isSafeInteger(value)) return value;
  const n = fromBigInt(value, true);
  if (n !== undefined) return n;
  throw wrong(parent, key, value, 'a safe integer');
}

/** An integer that defaults to 0 when absent (a nonce). */
export function u64OrZero(value, parent, key) {
  return value === undefined && !(key in parent) ? 0 : u64(value, parent, key);
}

/** An optional integer (-1: none); the module checks a 32-bit field's range. */
export function optionalInteger(value, parent, key, wide) {
  if (Number.isSafeInteger(value) && value >= 0) return value;
  if (value === undefined || value === null) return -1;
  const n = wide ? fromBigInt(value, false) : undefined;
  if (n !== undefined) return n;
  throw wrong(parent, key, value, 'a non-negative safe integer');
}

export function boolean(value, parent, key) {
  if (typeof value === 'boolean') return value;
  throw wrong(parent, key, value, 'a boolean');
}

/** A string field's UTF-16 length for the module, -1 when absent. */
export function length(value) {
  return value === undefined ? -1 : value.length;
}
