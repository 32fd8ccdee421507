// Shared by the suites: the signed types read from docs/proofs.md (the spec, not the crate),
// a seeded generator of random values of each EIP-712 type, and JSON that carries bigints.
import { readFileSync } from "node:fs";
import { getAddress, toHex } from "viem";

/**
 * `{Commitment: [{name, type}], Receipt: [...], "Receipt+house_agent": [...], SeedBatch: [...],
 * SignedMarks: [...], Play: [...]}` parsed from the spec, keyed as `signedTypes` lists them: the `Receipt`
 * whose last member is `house_agent` (bets at or above the signed marks) is
 * `Receipt+house_agent`, the one before it `Receipt`.
 */
export const TYPES = (() => {
  const spec = readFileSync(new URL("../../docs/proofs.md", import.meta.url), "utf8");
  const types = {};
  for (const line of spec.split("\n")) {
    const match = line.match(/^(Commitment|Receipt|SeedBatch|SignedMarks|Play)\((.*)\)$/);
    if (!match) continue;
    const fields = match[2].split(",").map((member) => {
      const [type, field] = member.split(" ");
      return { name: field, type };
    });
    const listed = match[1] === "Receipt" && fields.at(-1).name === "house_agent" ? "Receipt+house_agent" : match[1];
    if (types[listed]) throw new Error(`docs/proofs.md defines ${listed} twice`);
    types[listed] = fields;
  }
  for (const listed of ["Commitment", "Receipt", "Receipt+house_agent", "SeedBatch", "SignedMarks", "Play"]) {
    if (!types[listed]) throw new Error(`docs/proofs.md does not define ${listed}`);
  }
  return types;
})();

/** The EIP-712 primary type of a type as `signedTypes` lists it (`Receipt+house_agent` is a `Receipt`). */
export const primaryOf = (listed) => listed.split("+")[0];

export const DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "chainId", type: "uint256" },
];

export const MANIFEST_DOMAIN = { name: "Provably Fair Arcade", version: "1", chainId: 31337 };

export const MAX_UINT256 = 2n ** 256n - 1n;
export const MIN_INT256 = -(2n ** 255n);
export const MAX_INT256 = 2n ** 255n - 1n;

/** JSON text with bigints as decimal strings (how large integers cross into the module). */
export const toJson = (value) =>
  JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v));

/** A small seeded generator (mulberry32), so a failure can be replayed with PROOFS_SEED. */
export function generator(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  const bytes = (n) => Uint8Array.from({ length: n }, () => int(256));
  const bigBits = (bits) => {
    let v = 0n;
    for (const b of bytes(Math.ceil(bits / 8))) v = (v << 8n) | BigInt(b);
    return v & ((1n << BigInt(bits)) - 1n);
  };
  // Code points from many scripts, astral ones (emoji) and combining marks included;
  // no lone surrogates (not text).
  const ranges = [
    [0x20, 0x7e], [0x00, 0x1f], [0xa0, 0x24f], [0x300, 0x36f], [0x400, 0x4ff], [0x590, 0x6ff],
    [0x900, 0x97f], [0x3040, 0x30ff], [0x4e00, 0x9fff], [0xac00, 0xd7a3], [0xe000, 0xf8ff],
    [0xfff0, 0xfffd], [0x1f300, 0x1faff], [0x10000, 0x1007f], [0x20000, 0x2a6df], [0x10fff0, 0x10ffff],
  ];
  const string = () => {
    const length = pick([0, 1, 5, 32, int(64), 200 + int(800)]);
    let out = "";
    for (let i = 0; i < length; i++) {
      const [lo, hi] = pick(ranges);
      out += String.fromCodePoint(lo + int(hi - lo + 1));
    }
    return out;
  };
  const uint = (bits = 256) => {
    const max = (1n << BigInt(bits)) - 1n;
    return pick([0n, 1n, BigInt(int(1000)), 2n ** 53n - 1n, 2n ** 53n, max, max - 1n, bigBits(bits), bigBits(int(bits) + 1)]) & max;
  };
  const sint = (bits = 256) => {
    const half = 1n << BigInt(bits - 1);
    const v = pick([0n, -1n, 1n, -BigInt(int(1000)), half - 1n, -half, -half + 1n, bigBits(bits - 1), -bigBits(bits - 1), -(2n ** 53n) - 1n]);
    return v < -half || v >= half ? v % half : v;
  };
  const value = (type) => {
    if (type === "string") return string();
    if (type === "bool") return next() < 0.5;
    if (type === "address") return getAddress(toHex(bytes(20)));
    if (type === "bytes32") return toHex(bytes(32));
    if (type.startsWith("uint")) return uint(Number(type.slice(4) || 256));
    if (type.startsWith("int")) return sint(Number(type.slice(3) || 256));
    throw new Error(`no generator for ${type}`);
  };
  /** A message of a struct type, and its JSON form (safe integers sometimes as numbers). */
  const message = (fields) => Object.fromEntries(fields.map((f) => [f.name, value(f.type)]));
  return { next, int, pick, bytes, string, uint, sint, value, message };
}

/** Integers the module takes as JSON numbers when they are safe, as strings otherwise. */
export function jsonMessage(message, g) {
  return Object.fromEntries(
    Object.entries(message).map(([k, v]) => [
      k,
      typeof v === "bigint" && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) && g.next() < 0.5
        ? Number(v)
        : v,
    ]),
  );
}

export const seed = Number(process.env.PROOFS_SEED ?? Math.floor(Math.random() * 2 ** 32));

/** Sample receipts as the server sends them (docs/proofs.md, server BetReceipt). */
export function sampleReceipt(game, params, result, extra = {}) {
  return {
    bet_id: 4242,
    round_id: "rnd_01JD6Q7ZC3",
    address: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
    game,
    fairness_version: 1,
    commitment: "9f".repeat(32),
    server_seed: "0a".repeat(32),
    client_seed: "my lucky seed ☘",
    nonce: 0,
    wager: 10,
    params,
    result,
    won: false,
    payout: 0,
    profit: -10,
    settled_at: "2026-11-23T10:00:05.250Z",
    committed_at: "2026-11-23T10:00:00.000Z",
    house_agent: false,
    proofs: {
      batch: { batch_id: 3, index: 17, size: 1024, audit_path: ["ab".repeat(32)] },
      commitment: null,
      receipt: null,
    },
    ...extra,
  };
}
