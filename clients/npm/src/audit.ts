// The client's one contact with the shared checking module (arcade-wasm's audit: verdicts,
// trust, seed batches, the feed, the floor), the same code the audit command, the monitor, the
// verifier page and the element judge rounds with, so the client's verdicts are theirs. The
// trust (signer, domain, signed marks) is pinned at connect; the signed seed batches are read
// once and read again, with the manifest, when a receipt names a batch not yet read.
import { readArcade, seedRow, verifyBet } from 'arcade-wasm/bet.mjs';
import { auditFloor } from 'arcade-wasm/floor.mjs';
import { loadModules } from 'arcade-wasm/modules.mjs';
import { addToStats, newStats, statsOf } from 'arcade-wasm/stats.mjs';
import { FROM_HOUSE, PASS, judgeRound } from 'arcade-wasm/verdicts.mjs';

import { VerificationError } from './errors.js';
import type { Failure, Receipt, Verdict } from './types.js';

export type { Failure, Verdict } from './types.js';

/** What the client pins at connect: the house's signer and its signed marks. */
export interface Pin {
  signer: string;
  marks?: { signed_from: number; house_agent_signed_from: number };
}

/** The house's EIP-712 signing domain, as the manifest publishes it. */
export interface SigningDomain {
  name: string;
  version: string;
  chainId: number;
}

type Modules = { wasm: any; proofs: any };
let loaded: Modules | null = null;
/** The fairness core and the signature module (wasm), loaded once per process. */
export const modules = (): Modules => (loaded ??= loadModules());

/** Throws VerificationError unless the verdict is a pass. */
export function requirePass(verdict: Verdict, receipt: unknown): void {
  if (verdict.verdict !== PASS) throw new VerificationError(verdict, receipt);
}

/** Verdict fields kept on results (the wasm report and the derived round are left out). */
const slim = (v: any): Verdict => ({
  verdict: v.verdict, bet_id: v.bet_id, signer: v.signer, signer_pinned: v.signer_pinned,
  player: v.player, check: v.check, failures: v.failures, reason: v.reason,
});

/** What a client sent in a game call, to hold the answer's receipt to. */
export interface SentPlay {
  game: string;
  client_seed: string;
  wager: number;
}

/** `[{check: 'sent_play', why}]` when `receipt` is not the round of the play sent, else `[]`. */
function notSent(receipt: Receipt, sent: SentPlay): Array<{ check: string; why: string }> {
  const differ = (['game', 'client_seed', 'wager'] as const)
    .filter((field) => receipt[field] !== sent[field])
    .map((field) => `${field} ${JSON.stringify(receipt[field])}, sent ${JSON.stringify(sent[field])}`);
  return differ.length === 0 ? [] : [{ check: 'sent_play', why: `the receipt is not the round of the play sent: ${differ.join('; ')}` }];
}

/** Judges rounds under the trust pinned at connect. */
export class Verifier {
  readonly baseUrl: string;
  readonly pin: Pin;
  private arcade: { trust: any; batches: Map<number, any> };

  private constructor(baseUrl: string, pin: Pin, arcade: { trust: any; batches: Map<number, any> }) {
    this.baseUrl = baseUrl;
    this.pin = pin;
    this.arcade = arcade;
  }

  /** Reads the manifest under `pin` (the manifest's signer when none); batches are read by row. */
  static async open(baseUrl: string, manifest: any, pin?: Partial<Pin>): Promise<Verifier> {
    const signer = pin?.signer ?? manifest.signer;
    const marks = pin?.marks ?? (manifest.signed_marks
      ? { signed_from: manifest.signed_marks.signed_from, house_agent_signed_from: manifest.signed_marks.house_agent_signed_from }
      : undefined);
    const full: Pin = { signer, ...(marks ? { marks } : {}) };
    const arcade = await readArcade({ api: baseUrl, proofs: modules().proofs, pin: full });
    const verifier = new Verifier(baseUrl, full, arcade);
    const problem = arcade.trust.problems[0];
    if (problem) throw new VerificationError(slim({ verdict: 'fail', bet_id: null, signer, signer_pinned: true, player: null, check: problem.check, failures: arcade.trust.problems, reason: `${problem.check}: ${problem.why}` }), manifest);
    return verifier;
  }

  /** The signing domain the Play is signed in (the pinned manifest's). */
  get domain(): SigningDomain {
    return this.arcade.trust.domain;
  }

  /**
   * A round just played: the receipt against the player's own commit answer and address,
   * every proof checked. Each round reads its own row of its seed batch (a few kilobytes: the
   * row, its audit path and the batch's signed root); the root first read for a batch is kept,
   * and a later row under another root fails; a row not answered leaves the round not proven.
   * `sent`: the play the client sent; a receipt of another game, client seed or wager is not
   * its round (`sent_play`: an old receipt answered for a new play, say), whatever else holds.
   * Returns the verdict and the milliseconds judging took (that read not counted); throws
   * VerificationError unless it passes.
   */
  async checkPlay(receipt: Receipt, commit: unknown, player: string, sent: SentPlay): Promise<{ verdict: Verdict; ms: number }> {
    // A row the arcade does not answer leaves the round not proven, every other check still
    // made: the round was played, so its verdict is never an error about the read.
    let also: unknown[] = [];
    let unreachable: string | null = null;
    try {
      const row = await seedRow({ api: this.baseUrl, ...modules(), ...this.arcade }, receipt);
      this.arcade = { ...this.arcade, batches: row.batches };
      also = row.also;
    } catch (error) {
      unreachable = `the seed batch row: ${(error as Error).message}`;
    }
    also = [...also, ...notSent(receipt, sent)];
    const started = performance.now();
    const verdict = slim(judgeRound({ ...modules(), ...this.arcade, unreachable }, receipt, { from: FROM_HOUSE, player, commit, also }));
    const ms = performance.now() - started;
    requirePass(verdict, receipt);
    return { verdict, ms };
  }

  /** Bet `betId` as the arcade serves it now (manifest read again): `{verdict, receipt}`. */
  async checkBet(betId: number, player: string | null = null): Promise<{ verdict: Verdict; receipt: Receipt | null }> {
    const { verdict, receipt } = await verifyBet({ api: this.baseUrl, betId, modules: modules(), pin: this.pin, player });
    return { verdict: slim(verdict), receipt };
  }

  /** The floor audited under the pin, with `address`'s own rounds set apart (see `Arcade.audit`). */
  async audit(address: string | null, limit: number | null): Promise<AuditReport> {
    const mine = { stats: newStats(), rounds: 0, passed: 0, failures: [] as Array<Failure & { bet_id: number }> };
    const ownedBy = (receipt: Receipt) => address === null || receipt.address?.toLowerCase() === address.toLowerCase();
    const floor = await auditFloor({
      baseUrl: this.baseUrl, modules: modules(), pin: this.pin, limit,
      onRound: (verdict: any, receipt: Receipt) => {
        if (!ownedBy(receipt)) return;
        mine.rounds += 1;
        if (verdict.verdict === PASS) mine.passed += 1;
        for (const f of verdict.failures) mine.failures.push({ bet_id: receipt.bet_id, ...f });
        if (verdict.round) addToStats(mine.stats, verdict.round);
      },
    });
    const stats = statsOf(mine.stats);
    return {
      address, rounds: mine.rounds, verified: mine.passed, failures: mine.failures,
      // This address's failed checks, and the floor's own (trust, feed paging: every round's).
      checks: [...new Set([...mine.failures, ...floor.failures.filter((f: any) => f.bet_id === null)].map((f) => f.check))],
      rtp: stats.games,
      floor: { verdict: floor.verdict, rounds: floor.rounds, verified: floor.verified, failures_total: floor.failures_total, failed_checks: floor.failed_checks, failures: floor.failures, games: floor.games, signer: floor.signer },
    };
  }
}

/** Return to player of one game: realized beside the exact expectation for the bets made. */
export interface GameReturn {
  rounds: number;
  wagered: number;
  paid_out: number;
  realized_return: number | null;
  expected_return: number | null;
  interval: [number, number] | null;
  within_interval: boolean | null;
  /** Rounds beyond the published limits: counted in `rounds`, in no band. */
  over_limits: number;
  /** Wins of each win chance against their exact expectation, each judged in its band. */
  wins_by_chance: Array<{ chance_at_least: number; chance_below: number; rounds: number; wins: number; expected_wins: number; alarm_interval: [number, number]; in_band: boolean | null }>;
  in_band: boolean | null;
}

/** What `Arcade.audit` answers. */
export interface AuditReport {
  /** Whose rounds `rounds` … `rtp` count (null: every address). */
  address: string | null;
  rounds: number;
  verified: number;
  failures: Array<Failure & { bet_id: number }>;
  /** The checks that failed for these rounds, and the floor's own (the signer, the feed), each once. */
  checks: string[];
  rtp: Record<string, GameReturn>;
  /** The whole floor as the audit command sees it (its verdict, counts and failures). */
  floor: {
    verdict: string;
    rounds: number;
    verified: number;
    failures_total: number;
    failed_checks: Record<string, number>;
    failures: Array<Failure & { bet_id: number | null }>;
    games: Record<string, GameReturn>;
    signer: string;
  };
}
