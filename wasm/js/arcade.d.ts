// Types of arcade-wasm's entry (arcade.js). Copied into each package by wasm/js/package.mjs.
/** Errors thrown by every function: a real `Error` with a stable `code`. */
export interface ArcadeError extends Error {
  code:
    | "invalid_input"
    | "invalid_server_seed"
    | "invalid_client_seed"
    | "invalid_call"
    | "invalid_receipt"
    | "unsupported_version";
}

/**
 * The games of this package's core: `games()` lists them at run time, in this order (the
 * wasm-node suite fails when this union and `games()` differ).
 */
export type Game = "coinflip" | "dice" | "roulette" | "limbo";
export type Side = "heads" | "tails";
export type Direction = "under" | "over";
export type RouletteBet =
  | "straight" | "red" | "black" | "odd" | "even" | "low" | "high"
  | "dozen1" | "dozen2" | "dozen3" | "column1" | "column2" | "column3";

export interface CoinflipParams { call: Side }
export interface DiceParams { target: number; direction?: Direction }
export interface RouletteParams { bet: RouletteBet; number?: number | null }
/** The target multiplier in hundredths: 101 (1.01x) to 100000000 (1000000.00x). */
export interface LimboParams { target_hundredths: number }
export type Params = CoinflipParams | DiceParams | RouletteParams | LimboParams;

export interface CoinflipResult { outcome: Side }
export interface DiceResult {
  /** Display form, two decimals; settlement uses `roll_hundredths`. */
  roll: number;
  roll_hundredths: number;
  /** e.g. "49.5000%" */
  win_chance: string;
  /** e.g. "2.0000" */
  multiplier: string;
}
export interface RouletteResult { pocket: number; color: "red" | "black" | "green" }
export interface LimboResult {
  /** The crash point in hundredths; the round wins when it reaches the target. */
  result_hundredths: number;
  /** Display form, two decimals, e.g. "8.20". */
  crash_point: string;
}
export type GameResult = CoinflipResult | DiceResult | RouletteResult | LimboResult;

/** A settled round's receipt, as the server returns it. Extra fields are ignored. */
export interface Receipt {
  game: Game;
  fairness_version: 1;
  commitment: string;
  server_seed: string;
  client_seed: string;
  nonce?: number;
  /** Whole chips; a safe integer. */
  wager: number;
  params: Params;
  result: Partial<CoinflipResult & DiceResult & RouletteResult & LimboResult>;
  won: boolean;
  payout: number;
  profit: number;
  [extra: string]: unknown;
}

/** The steps a person can follow. */
export interface Trace {
  hmac_key: string;
  /** `client_seed:nonce:0` */
  hmac_message: string;
  /** HMAC-SHA256 digest of block 0, hex. */
  block0: string;
  /** Bytes 0..4 of block0: decides the outcome. */
  u0: number;
  /** Bytes 4..8 of block0: decides the fractional chip. */
  u1: number;
  exact_return: {
    numerator: string;
    denominator: string;
    floor: string;
    remainder: string;
    bonus_chip: boolean;
  };
  /** `W`: how many of the game's equally likely outcomes win the call (decimal). */
  winning_count: string;
  /** `N`: how many equally likely outcomes the game has (decimal). */
  outcomes: string;
  /** The number u0 maps to before the outcome is read from it (decimal; see GameDescription.mapping). */
  drawn: string;
}

/** What a described field holds. */
export type FieldKind =
  | { kind: "choice"; words: string[] }
  | { kind: "integer"; min: number; max: number }
  | { kind: "text"; pattern: string }
  | { kind: "shown" }
  | { kind: "number" };

/** One field of a call, a receipt's params or its result. */
export type Field = FieldKind & {
  name: string;
  required: boolean;
  /** The other field and word with which it is required (roulette's number, with "straight"). */
  required_with: [string, string] | null;
  about: string;
};

/** Where a member of the signed Play and Receipt comes from: a params field, a fixed word, or nothing. */
export type SignedSource = { param: string } | { word: string } | "absent";

/** A game as the core describes it. */
export interface GameDescription {
  name: Game;
  /** What the player calls and what a win returns, in one line. */
  summary: string;
  /** `N`: equally likely outcomes. */
  outcomes: number;
  /** How u0 maps to the outcome, with `{u0}`, `{drawn}` (trace.drawn) and `{<result field>}` to fill in. */
  mapping: string;
  /** The call as a player sends it (a game body, an MCP tool's arguments). */
  call: Field[];
  /** The call as a receipt's params show it and the Play names it. */
  params: Field[];
  /** A receipt's result. */
  result: Field[];
  /** What the signed Play and Receipt carry; `outcome` is the result field the Receipt signs. */
  signed: { call: SignedSource; target: SignedSource; number: SignedSource; outcome: string; outcome_words: string[] };
}

export interface Mismatch {
  check: "commitment" | "outcome" | "payout";
  /** e.g. "result.pocket" */
  field: string;
  derived: string;
  claimed: string;
}

export interface Verification {
  verified: boolean;
  checks: { commitment: boolean; outcome: boolean; payout: boolean };
  derived: { commitment: string; result: GameResult; won: boolean; payout: number; profit: number };
  trace: Trace;
  mismatches: Mismatch[];
}

export interface RoundInput<P extends Params> {
  server_seed: string;
  client_seed: string;
  /** Defaults to 0, the nonce of every arcade round. */
  nonce?: number;
  wager: number;
  params: P;
}

/** The receipt fields of the derived round plus its trace. */
export type Derivation = Omit<Receipt, "nonce"> & { nonce: number; result: GameResult; trace: Trace };

export interface VersionInfo { package: string; fairness_version: 1 }

/**
 * Re-derives a receipt (the object `GET /api/arcade/verify/{bet_id}` returns, or a game call's
 * response) and reports each check. A tampered receipt is not an error: it comes back with
 * `verified: false` and the differing fields in `mismatches`.
 */
export function verify(receipt: Receipt): Verification;

/**
 * Verifies many receipts: an array of receipts, or a string of JSON lines (one receipt per
 * line; blank lines are skipped). Returns each receipt's report, exactly what `verify` returns,
 * in order. A receipt that cannot be verified at all throws `verify`'s error, with the
 * receipt's 0-based `index` and, for JSON lines, its 1-based `line`.
 */
export function verifyMany(receipts: Receipt[] | string): Verification[];

/** The error `verifyMany` throws: the receipt's position besides the code. */
export interface BatchError extends ArcadeError {
  index: number;
  line?: number;
}

/** The commitment of a server seed: the lowercase hex SHA-256 of its 64 ASCII characters. */
export function commitment(server_seed: string): string;

/**
 * The games the core knows, in its order (the core's one list). A receipt or a round of any
 * other game is refused: an `invalid_input` error whose message names the game.
 */
export function games(): Game[];

/** Every game as the core describes it, in its order: the one description everything reads. */
export function gameDescriptions(): readonly GameDescription[];

/** Settles a round of `game` from its seeds; another game is refused (see `games`). */
export function derive(game: Game, input: RoundInput<Params>): Derivation;

/** Settles a coinflip from its seeds; returns the receipt fields and the `trace`. */
export function deriveCoinflip(input: RoundInput<CoinflipParams>): Derivation;

/** Settles a dice round: `params: {target: 1..99, direction?: "under" | "over"}`. */
export function deriveDice(input: RoundInput<DiceParams>): Derivation;

/** Settles a roulette spin: `params: {bet, number?}` (`number` for straight bets only). */
export function deriveRoulette(input: RoundInput<RouletteParams>): Derivation;

/** One seed's place in a published batch, with the batch's signed `merkle_root`. */
export interface Inclusion {
  commitment: string;
  index: number;
  size: number;
  audit_path: string[];
  merkle_root: string;
}

/** Whether a commitment is leaf `index` of the batch whose root is `merkle_root` (RFC 9162). */
export function verifyInclusion(input: Inclusion): boolean;

/** The RFC 9162 root (hex) over commitments given in index order. */
export function merkleRoot(commitments: string[]): string;

/** The package version and the fairness version it implements. */
export function version(): VersionInfo;

// web build: instantiate the module first (`await init()`, or `initSync({ module })`).
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;
export function initSync(module: { module: BufferSource | WebAssembly.Module }): unknown;
export default function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> },
): Promise<unknown>;
// end of web build
