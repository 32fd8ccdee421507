//! TypeScript types of the exported functions' objects, written once.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
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

export type Game = "coinflip" | "dice" | "roulette";
export type Side = "heads" | "tails";
export type Direction = "under" | "over";
export type RouletteBet =
  | "straight" | "red" | "black" | "odd" | "even" | "low" | "high"
  | "dozen1" | "dozen2" | "dozen3" | "column1" | "column2" | "column3";

export interface CoinflipParams { call: Side }
export interface DiceParams { target: number; direction?: Direction }
export interface RouletteParams { bet: RouletteBet; number?: number | null }
export type Params = CoinflipParams | DiceParams | RouletteParams;

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
export type GameResult = CoinflipResult | DiceResult | RouletteResult;

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
  result: Partial<CoinflipResult & DiceResult & RouletteResult>;
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
"#;
