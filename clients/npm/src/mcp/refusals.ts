// A tool call that did not succeed, in words the model can act on: what happened, and what to
// do next. Every refusal is a tool result (`isError: true`), never a protocol error: the
// arcade's own refusals (its code and detail), the spending cap, a round that did not verify,
// an arcade that cannot be reached or speaks another version.
import type { Arcade } from '../arcade.js';
import { ArcadeError, SpendingCapError, UnsupportedServerError, VerificationError } from '../errors.js';
import { isLost } from '../http.js';
import { usd } from './summaries.js';

/** What to do after the arcade's refusals, by its code (others: read its detail). */
const NEXT: Record<string, string> = {
  insufficient_chips: 'Buy chips (arcade_buy_chips) or wager less.',
  wager_above_limit: 'Wager less.',
  payout_above_limit: 'Wager less, or pick shorter odds: the round\'s potential profit is capped.',
  buy_in_required: 'Buy chips first (arcade_buy_chips): only an address that bought chips can cash out.',
  cashout_exceeds_cashable: 'Only paid chips cash out: ask arcade_balance for `cashable` and cash out at most that.',
  validation_failed: 'Correct the arguments as the detail says.',
  validation_error: 'Correct the arguments as the detail says.',
  rate_limited: 'Wait a little, then try again.',
  house_underfunded: 'Nothing was debited; try again later.',
  chain_unavailable: 'Try again later; a cashout refused here was refunded.',
  books_behind_chain: 'Nothing was debited; try again in a minute.',
  cashout_failed: 'The chips were refunded; try again later.',
};

/** The refusal's text for `error`, thrown by a tool talking to the arcade at `url`. */
export function refusal(error: unknown, url: string, arcade: Arcade | null): string {
  if (error instanceof VerificationError) {
    return `NOT VERIFIED: bet ${error.verdict.bet_id ?? '(unknown)'} failed the check "${error.check}". Every failure: ${error.verdict.reason}\n` +
      'It is not reported as a played round: the arcade\'s answer could not be proven, so its outcome is not to be believed ' +
      '(the wager may have been taken). Stop playing at this arcade; keep this message and the bet id as evidence ' +
      '(arcade_verify and arcade_audit check it again).';
  }
  if (error instanceof SpendingCapError) {
    const decimals = arcade?.decimals ?? 6;
    if (arcade?.spendCap === 0n) {
      return `Refused: this server was started without --max-spend, so it buys nothing (the tier costs ${usd(error.price, decimals)}). ` +
        'Restart it with --max-spend <USD> to allow purchases.';
    }
    const cap = arcade ? usd(arcade.spendCap, decimals) : '(unknown)';
    return `Refused before anything was signed or paid: this tier costs ${usd(error.price, decimals)}; the spending cap is ${cap} ` +
      `(--max-spend) and ${usd(error.remaining, decimals)} of it is left. Buy a smaller tier, or restart the server with a higher --max-spend.`;
  }
  if (error instanceof ArcadeError) {
    const next = NEXT[error.code] ?? 'Read the detail: correct the call, or try again later.';
    return `The arcade refused (${error.status} ${error.code}): ${error.detail}. ${next}`;
  }
  if (error instanceof UnsupportedServerError) {
    return `This arcade speaks another version: ${error.message}. Use an arcade-client release that supports it.`;
  }
  if (error instanceof RangeError) return `${error.message}. Correct the argument.`;
  if (isLost(error)) {
    return `No answer from the arcade at ${url} (${(error as Error).message}). Check that it is running and that --url is right, then try again.`;
  }
  return `Failed: ${error instanceof Error ? error.message : String(error)}.`;
}
