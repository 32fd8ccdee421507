// The tools: one per operation of the client (`Arcade`), each with a precise input schema, an
// output schema its `structuredContent` matches, and every annotation hint. A tool answers a
// short text (summaries.ts) beside the structured result; whatever it throws becomes a tool
// error (refusals.ts). A round is reported only after it verified: the client's play throws
// VerificationError otherwise, and that is a refusal, never a played round.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import type { Arcade, Round } from '../arcade.js';
import { ROULETTE_BETS } from '../games.js';
import { refusal } from './refusals.js';
import {
  auditText, balanceText, cashoutText, checksOf, purchaseText, roundText, spendingOf, usd, verifyText,
} from './summaries.js';

/** What the tools need: the arcade (connected on first use), its URL, and the log (stderr). */
export interface ToolContext {
  arcade: () => Promise<Arcade>;
  url: string;
  log: (line: string) => void;
}

interface Answer {
  text: string;
  structured: Record<string, unknown>;
}

// Annotation hints. Every tool reaches the arcade (open world).
const READS: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
/** Takes away (the wager, the payer's tokens, the chips cashed out); each call acts anew. */
const SPENDS: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

const int = () => z.number().int();
const spending = z.object({ cap: z.string(), left: z.string() }).nullable()
  .describe('The spending cap (--max-spend) and what is left of it, in dollars; null: no cap set, nothing is bought.');

const wager = int().min(1).describe('Chips to wager, at least 1. The arcade caps the wager and the potential profit (longer odds take smaller wagers).');

/** Every game's answer: a round played and verified. */
const ROUND = {
  bet_id: int(), game: z.string(), wager: int(),
  params: z.record(z.unknown()).describe('The call, as the receipt and your Play signature name it.'),
  result: z.record(z.unknown()).describe('The outcome, as the wasm core re-derived it.'),
  won: z.boolean(), payout: int(), profit: int(),
  balance: int().describe('Chips after the round.'),
  replayed: z.boolean().describe('True when an answer had been lost and the arcade replayed the settled round (charged once).'),
  chained: z.boolean().describe('True when the round was the one the previous play opened, committed before this client seed: no commit request.'),
  verified: z.literal(true),
  checks: z.array(z.string()).describe('The checks that passed before the round was reported.'),
  signer: z.string().describe('The house signer the proofs were checked against, pinned at connect.'),
  client_seed: z.string(), server_seed: z.string(), commitment: z.string(),
  seed_batch: z.object({ batch_id: int(), index: int(), size: int() }).nullable(),
};

/** A verified round as the tools answer it. */
function played(r: Round, call: string, outcome: string): Answer {
  const x = r.receipt;
  const batch = x.proofs.batch;
  return {
    text: roundText(r, call, outcome),
    structured: {
      bet_id: r.bet_id, game: r.game, wager: x.wager, params: x.params, result: r.result, won: r.won, payout: r.payout,
      profit: r.profit, balance: r.balance, replayed: r.replayed, chained: r.chained, verified: true, checks: checksOf(r.verdict, true),
      signer: r.verdict.signer, client_seed: x.client_seed, server_seed: x.server_seed, commitment: x.commitment,
      seed_batch: batch && { batch_id: batch.batch_id, index: batch.index, size: batch.size },
    },
  };
}

/** Runs a tool against the arcade: its answer, or the refusal as a tool error; one log line either way. */
async function answer(context: ToolContext, name: string, work: (arcade: Arcade) => Promise<Answer>): Promise<CallToolResult> {
  let arcade: Arcade | null = null;
  try {
    arcade = await context.arcade();
    const { text, structured } = await work(arcade);
    context.log(`${name}: ${text.split('\n').join(' | ')}`);
    return { content: [{ type: 'text', text }], structuredContent: structured };
  } catch (error) {
    const text = refusal(error, context.url, arcade);
    context.log(`${name} refused: ${text.split('\n').join(' | ')}`);
    return { content: [{ type: 'text', text }], isError: true };
  }
}

const PLAYS = 'Plays the round the last play opened, or commits one (the house\'s seed committed first either way), draws a fresh random client seed, signs your Play, plays, and ' +
  'verifies the round locally with the wasm core (seed against commitment, outcome re-derived, the house\'s signatures, the seed ' +
  'batch\'s Merkle proof, your Play) before answering; a round that does not verify is refused, never reported as played.';

export function registerTools(server: McpServer, context: ToolContext): void {
  const tool = (name: string) => (work: (arcade: Arcade) => Promise<Answer>) => answer(context, name, work);

  server.registerTool('arcade_buy_chips', {
    title: 'Buy chips',
    description: 'Buys chips over x402, paid in the arcade\'s stablecoin from this server\'s wallet and credited to it, under the ' +
      'spending cap (--max-spend): a tier above what is left of it is refused before anything is signed.',
    inputSchema: { tier: z.enum(['micro', 'small', 'medium']).describe('micro (the smallest), small or medium (the largest); the answer gives the chips and the price paid.') },
    outputSchema: {
      address: z.string(), tier: z.string(), chips_credited: int(), balance: int(),
      amount: z.string().describe('The price paid, in the token\'s base units.'), price_usd: z.string(),
      tx_hash: z.string(), network: z.string(), spending,
    },
    annotations: SPENDS,
  }, ({ tier }) => tool('arcade_buy_chips')(async (arcade) => {
    const p = await arcade.buyChips(tier);
    const cap = spendingOf(arcade);
    return {
      text: purchaseText(p, arcade.decimals, cap),
      structured: { address: p.address, tier: p.tier, chips_credited: p.chips_credited, balance: p.balance, amount: p.amount, price_usd: usd(p.amount, arcade.decimals), tx_hash: p.tx_hash, network: p.network, spending: cap },
    };
  }));

  server.registerTool('arcade_flip', {
    title: 'Coinflip',
    description: `Coinflip: call heads or tails; a win returns 1.98x the wager. ${PLAYS}`,
    inputSchema: { wager, call: z.enum(['heads', 'tails']).describe('heads or tails') },
    outputSchema: ROUND,
    annotations: SPENDS,
  }, (call) => tool('arcade_flip')(async (arcade) => {
    const r = await arcade.flip(call);
    return played(r, `called ${call.call}`, `landed ${r.result.outcome}`);
  }));

  server.registerTool('arcade_dice', {
    title: 'Dice',
    description: `Dice: a roll from 0.00 to 100.00; under wins below the target, over above it; pays 99% of the fair odds. ${PLAYS}`,
    inputSchema: {
      wager,
      target: int().min(1).max(99).describe('The target, 1 to 99.'),
      direction: z.enum(['under', 'over']).optional().describe('under (the default) or over.'),
    },
    outputSchema: ROUND,
    annotations: SPENDS,
  }, (call) => tool('arcade_dice')(async (arcade) => {
    const r = await arcade.dice(call);
    return played(r, `${call.direction ?? 'under'} ${call.target}`, `rolled ${r.result.roll}`);
  }));

  server.registerTool('arcade_roulette', {
    title: 'Roulette',
    description: `European roulette (pockets 0 to 36): straight (one number) pays 36x; red, black, odd, even, low, high pay 2x; ` +
      `dozen1-3 and column1-3 pay 3x. ${PLAYS}`,
    inputSchema: {
      wager,
      bet: z.enum(ROULETTE_BETS).describe('straight (with number), red, black, odd, even, low, high, dozen1, dozen2, dozen3, column1, column2 or column3.'),
      number: int().min(0).max(36).optional().describe('The pocket, 0 to 36: for a straight bet only, and required for it.'),
    },
    outputSchema: ROUND,
    annotations: SPENDS,
  }, (call) => tool('arcade_roulette')(async (arcade) => {
    if ((call.bet === 'straight') !== (call.number !== undefined)) {
      throw new RangeError(call.bet === 'straight' ? 'a straight bet needs number (0 to 36)' : `number is for a straight bet only, not ${call.bet}`);
    }
    const r = await arcade.roulette(call);
    return played(r, call.bet === 'straight' ? `straight ${call.number}` : call.bet, `pocket ${r.result.pocket} ${r.result.color}`);
  }));

  server.registerTool('arcade_limbo', {
    title: 'Limbo',
    description: `Limbo: a multiplier from 1.00 up is drawn; you win when it reaches your target, paid 99% of the fair odds. ${PLAYS}`,
    inputSchema: {
      wager,
      target: z.union([z.string().regex(/^\d+(\.\d{1,2})?$/), z.number().min(1.01)])
        .describe('The target multiplier, 1.01 to 1000000.00, at most two decimals: "2.00" or 2.'),
    },
    outputSchema: ROUND,
    annotations: SPENDS,
  }, (call) => tool('arcade_limbo')(async (arcade) => {
    const r = await arcade.limbo(call);
    return played(r, `target ${call.target}x`, `drew ${r.result.crash_point}x`);
  }));

  server.registerTool('arcade_cashout', {
    title: 'Cash out',
    description: 'Redeems paid chips for the token, sent on chain by the house to this server\'s address (free chips never cash out; ' +
      'the arcade sets a minimum, 100 chips on the dev stack). Sent under a fresh idempotency key: a lost answer is asked for again, never paid twice.',
    inputSchema: { chips: int().min(1).optional().describe('Chips to cash out; default: every cashable chip.') },
    outputSchema: {
      cashout_id: int(), address: z.string(), chips: int(),
      amount: z.string().describe('Token base units sent.'), amount_usd: z.string(),
      status: z.string().describe('pending, sent or confirmed.'), tx_hash: z.string().nullable(), balance: int(),
    },
    annotations: SPENDS,
  }, ({ chips }) => tool('arcade_cashout')(async (arcade) => {
    const amount = chips ?? (await arcade.balance()).cashable;
    if (amount === 0) throw new RangeError('nothing to cash out: no cashable (paid) chips; free chips never cash out');
    const c = await arcade.cashout(amount);
    return {
      text: cashoutText(c, arcade.decimals),
      structured: { cashout_id: c.cashout_id, address: c.address, chips: c.chips, amount: c.amount, amount_usd: usd(c.amount, arcade.decimals), status: c.status, tx_hash: c.tx_hash, balance: c.balance },
    };
  }));

  server.registerTool('arcade_balance', {
    title: 'Balance',
    description: 'The chips this server\'s address holds (paid and free), and what is left of the spending cap.',
    outputSchema: { address: z.string(), chips: int(), cashable: int(), free_chips: int(), bought_in: z.boolean(), spending },
    annotations: READS,
  }, () => tool('arcade_balance')(async (arcade) => {
    const b = await arcade.balance();
    const cap = spendingOf(arcade);
    return { text: balanceText(b, cap), structured: { address: b.address, chips: b.chips, cashable: b.cashable, free_chips: b.free_chips, bought_in: b.bought_in, spending: cap } };
  }));

  server.registerTool('arcade_verify', {
    title: 'Verify a bet',
    description: 'Verifies any bet by id, as the arcade serves it now, under the signer pinned at connect: re-derived by the wasm core, ' +
      'the house\'s signatures, its seed batch and the player\'s Play checked. A bet that fails a check is a tool error naming it.',
    inputSchema: { bet_id: int().min(1).describe('The bet id (from a round, the feed, or anyone\'s receipt).') },
    outputSchema: {
      bet_id: int(), verified: z.boolean().describe('True: pass; false: consistent, not proven (see reason).'),
      verdict: z.enum(['pass', 'consistent, not proven']), checks: z.array(z.string()), reason: z.string(), signer: z.string(),
      receipt: z.object({ game: z.string(), address: z.string(), wager: int(), won: z.boolean(), payout: int(), result: z.record(z.unknown()) }).nullable(),
    },
    annotations: READS,
  }, ({ bet_id }) => tool('arcade_verify')(async (arcade) => {
    const check = await arcade.verify(bet_id);
    const x = check.receipt;
    return {
      text: verifyText(bet_id, check),
      structured: {
        bet_id, verified: check.verified, verdict: check.verdict.verdict, checks: checksOf(check.verdict, false), reason: check.verdict.reason,
        signer: check.verdict.signer, receipt: x && { game: x.game, address: x.address, wager: x.wager, won: x.won, payout: x.payout, result: x.result },
      },
    };
  }));

  const gameReturn = z.object({
    rounds: int(), wagered: int(), paid_out: int(), realized_return: z.number().nullable(), expected_return: z.number().nullable(),
    in_band: z.boolean().nullable().describe('Whether the realized return is inside the band a fair game stays in.'),
  });
  server.registerTool('arcade_audit', {
    title: 'Audit an address',
    description: 'Audits the arcade\'s floor as the audit command does (every receipt of the feed and every seed batch verified), with ' +
      'one address\'s rounds counted apart: how many verified, the checks that failed, and the return to player per game beside the exact expectation.',
    inputSchema: {
      address: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional().describe('The address whose rounds to count apart; default: this server\'s.'),
      limit: int().min(1).optional().describe('Audit only the last N rounds of the floor; default: all.'),
    },
    outputSchema: {
      address: z.string().nullable(), rounds: int(), verified: int(), checks: z.array(z.string()).describe('The checks that failed (none: every round verified).'),
      failures: z.array(z.object({ bet_id: int(), check: z.string(), why: z.string() })).describe('The first 50 failures.'),
      rtp: z.record(gameReturn),
      floor: z.object({ verdict: z.string(), rounds: int(), verified: int(), failures_total: int(), signer: z.string() }),
    },
    annotations: READS,
  }, ({ address, limit }) => tool('arcade_audit')(async (arcade) => {
    const r = await arcade.audit({ address, limit });
    const rtp = Object.fromEntries(Object.entries(r.rtp).map(([game, g]) => [game, {
      rounds: g.rounds, wagered: g.wagered, paid_out: g.paid_out, realized_return: g.realized_return, expected_return: g.expected_return, in_band: g.in_band,
    }]));
    const { verdict, rounds, verified, failures_total, signer } = r.floor;
    return {
      text: auditText(r),
      structured: { address: r.address, rounds: r.rounds, verified: r.verified, checks: r.checks, failures: r.failures.slice(0, 50).map(({ bet_id, check, why }) => ({ bet_id, check, why })), rtp, floor: { verdict, rounds, verified, failures_total, signer } },
    };
  }));
}
