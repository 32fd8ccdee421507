// The short texts the tools answer with, for the model and the person reading along: what
// happened, in a line or two, and for a round which checks passed before it was reported.
import { formatUnits } from 'viem';

import type { Arcade, BetCheck, Round } from '../arcade.js';
import type { AuditReport, Verdict } from '../audit.js';
import type { Balance, Cashout, Purchase } from '../types.js';

/** What is held to a verdict that passed, in the order the shared checks run them. */
const PASSED = [
  'seed matches commitment', // sha256 of the revealed server seed is the commitment shown before play
  'outcome re-derived', // result and payout, by the wasm core the house settles with
  'commitment signature', // the Commitment, EIP-712, by the signer pinned at connect
  'receipt signature', // the Receipt, the same signer
  'seed-batch inclusion', // the seed's Merkle path leads to a batch root the signer signed
  'play signature', // the player's Play names that commitment before the outcome existed
];
/** A played round is also held to the commit answer the player was given. */
const PLAYED = 'matches your commit';

/**
 * The checks a verdict passed: every one for a pass (a played round also its commit answer),
 * the re-derivation alone when consistent but not proven, none when it failed.
 */
export function checksOf(verdict: Verdict, played: boolean): string[] {
  if (verdict.verdict === 'pass') return played ? [...PASSED, PLAYED] : [...PASSED];
  return verdict.verdict === 'fail' ? [] : PASSED.slice(0, 2);
}

/** Base units of the token as dollars: `$0.05`. */
export const usd = (units: bigint | string, decimals: number): string => {
  const [whole, part = ''] = formatUnits(BigInt(units), decimals).split('.');
  return `$${whole}.${part.padEnd(2, '0')}`;
};

/** The spending cap and what is left of it, in dollars; null when no cap was set. */
export interface Spending {
  cap: string;
  left: string;
}

export function spendingOf(arcade: Arcade): Spending | null {
  return arcade.spendCap === 0n ? null : { cap: usd(arcade.spendCap, arcade.decimals), left: usd(arcade.spendable, arcade.decimals) };
}

/** The spending cap and what is left of it, in words. */
export function capText(cap: Spending | null): string {
  return cap ? `spending cap ${cap.cap}, ${cap.left} left` : 'no spending cap set (--max-spend): this server buys nothing';
}

export function roundText(r: Round, call: string, outcome: string): string {
  const result = r.won ? `won, payout ${r.payout}` : 'lost';
  const batch = r.receipt.proofs.batch;
  const place = batch ? `; seed index ${batch.index} of batch ${batch.batch_id}` : '';
  return `${r.game} bet ${r.bet_id}: ${call}, ${outcome}: ${result} (wager ${r.receipt.wager}, profit ${r.profit}); balance ${r.balance} chips.` +
    `${r.replayed ? ' (The arcade replayed the settled round: an answer had been lost; charged once.)' : ''}\n` +
    `verified: ${checksOf(r.verdict, true).join(', ')} (signer ${r.verdict.signer}, pinned${place}).`;
}

export function purchaseText(p: Purchase, decimals: number, cap: Spending | null): string {
  return `Bought ${p.chips_credited} chips (${p.tier}) for ${usd(p.amount, decimals)} over x402, tx ${p.tx_hash}; ` +
    `balance ${p.balance} chips; ${capText(cap)}.`;
}

export function balanceText(b: Balance, cap: Spending | null): string {
  return `${b.chips} chips for ${b.address}: ${b.cashable} cashable (paid), ${b.free_chips} free (play money, never cashed out)` +
    `${b.bought_in ? '' : '; no chips bought yet (a cashout needs a purchase first)'}; ${capText(cap)}.`;
}

export function cashoutText(c: Cashout, decimals: number): string {
  const tx = c.tx_hash ? `, tx ${c.tx_hash}` : '';
  return `Cashout ${c.cashout_id}: ${c.chips} chips for ${usd(c.amount, decimals)} of the token to ${c.address}, ${c.status}${tx}; ` +
    `balance ${c.balance} chips.${c.status === 'confirmed' ? '' : ' The transfer confirms on chain shortly.'}`;
}

export function verifyText(betId: number, check: BetCheck): string {
  const { verdict } = check;
  const head = check.verified ? `Bet ${betId}: verified (pass).` : `Bet ${betId}: consistent, NOT proven.`;
  return `${head} ${verdict.reason}\nchecks passed: ${checksOf(verdict, false).join(', ')} (signer ${verdict.signer}, pinned).`;
}

export function auditText(r: AuditReport): string {
  const whose = r.address ?? 'every address';
  const games = Object.entries(r.rtp).map(([game, g]) =>
    `${game} ${g.rounds} rounds, return ${g.realized_return?.toFixed(3) ?? '-'} (expected ${g.expected_return?.toFixed(4) ?? '-'}${g.in_band === false ? ', OUTSIDE the expected band' : ''})`);
  const failed = r.checks.length > 0 ? `FAILED checks: ${r.checks.join(', ')}; ${r.failures.length} failures, e.g. ${r.failures.slice(0, 3).map((f) => `bet ${f.bet_id} ${f.check}: ${f.why}`).join('; ')}. ` : '';
  return `${failed}Audit of ${whose}: ${r.rounds} rounds, ${r.verified} verified (pass)${games.length ? `; ${games.join('; ')}` : ''}. ` +
    `The whole floor: ${r.floor.verdict}, ${r.floor.rounds} rounds, ${r.floor.verified} verified, ${r.floor.failures_total} failures (signer ${r.floor.signer}).`;
}
