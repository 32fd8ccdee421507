// The errors a caller can tell apart: the arcade refused (its `code` and HTTP status), a round
// did not verify (the failed check's name), a purchase was above the spending cap, or the
// server announces a fairness version or API shape this package does not speak.
import type { Verdict } from './types.js';

/** The arcade answered with an error: `code` is its stable machine-readable code. */
export class ArcadeError extends Error {
  readonly code: string;
  readonly status: number;
  /** The server's words for it. */
  readonly detail: string;
  readonly body: unknown;

  constructor(code: string, status: number, detail: string, body: unknown = null) {
    super(`${status} ${code}: ${detail}`);
    this.name = 'ArcadeError';
    this.code = code;
    this.status = status;
    this.detail = detail;
    this.body = body;
  }
}

/**
 * A round (or a bet asked for) did not verify. `check` names the first failed check of the
 * shared verdict (`rederive`, `receipt_signature`, `inclusion`, `batch_signature`, `signer`, …);
 * `verdict` is the whole verdict, every failure listed.
 */
export class VerificationError extends Error {
  readonly check: string;
  readonly verdict: Verdict;
  readonly receipt: unknown;

  constructor(verdict: Verdict, receipt: unknown) {
    const check = verdict.check ?? 'not_proven';
    super(`round ${verdict.bet_id ?? '(unknown)'} did not verify: ${check}: ${verdict.reason}`);
    this.name = 'VerificationError';
    this.check = check;
    this.verdict = verdict;
    this.receipt = receipt;
  }
}

/** A purchase whose price is above what is left of the caller's spending cap; nothing was signed. */
export class SpendingCapError extends Error {
  readonly price: bigint;
  readonly remaining: bigint;

  constructor(tier: string, price: bigint, remaining: bigint) {
    super(`buying ${tier} costs ${price} base units of the token; ${remaining} are left of the spending cap: refused before signing`);
    this.name = 'SpendingCapError';
    this.price = price;
    this.remaining = remaining;
  }
}

/** The server announces a fairness version or API shape this package does not support. */
export class UnsupportedServerError extends Error {
  readonly field: string;
  readonly announced: unknown;

  constructor(field: string, announced: unknown, supported: readonly unknown[]) {
    super(`the server announces ${field} ${JSON.stringify(announced)}; this package supports ${JSON.stringify(supported)}`);
    this.name = 'UnsupportedServerError';
    this.field = field;
    this.announced = announced;
  }
}
