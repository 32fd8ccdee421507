// arcade-client: play the Provably Fair Arcade with every round verified before it returns.
export { Arcade } from './arcade.js';
export type { BetCheck, ConnectOptions, Round } from './arcade.js';
export type { ArcadeAccount, Hex, TypedDataArgs } from './account.js';
export type { AuditReport, Failure, GameReturn, Pin, SigningDomain, Verdict } from './audit.js';
export { ArcadeError, SpendingCapError, UnsupportedServerError, VerificationError } from './errors.js';
export type { DiceCall, FlipCall, LimboCall, RouletteBet, RouletteCall } from './games.js';
export type { SpendCap } from './purchases.js';
export type { Balance, BatchPlace, Cashout, CommitAnswer, Played, Proofs, Purchase, Receipt, Signed } from './types.js';
export { API_VERSIONS, FAIRNESS_VERSIONS } from './versions.js';
export type { Compatibility } from './versions.js';
