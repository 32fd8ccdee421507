// The client: connect to an arcade (its manifest read, its signer and domain pinned, its
// versions checked), buy chips over x402 under a cap, and play. Every round is committed,
// played with a fresh client seed and the player's Play signature, and verified by the shared
// checks before the call returns; a lost answer is asked for again and the server replays the
// round's receipt. Each play asks for its successor (`next_round`), so after the first round
// of a session a round costs one request: the next play takes the round the last one opened,
// its commitment shown (and checked, as a commit answer is) before its client seed exists.
import type { ArcadeAccount, Hex } from './account.js';
import { type AuditReport, type Pin, type Verdict, Verifier, modules, requirePass } from './audit.js';
import { ArcadeError } from './errors.js';
import { type DiceCall, type Endpoint, type FlipCall, GAME_OF, type LimboCall, type RouletteCall, randomClientSeed, shapeOf } from './games.js';
import { requestJson, requestRetrying } from './http.js';
import { Purse, type SpendCap } from './purchases.js';
import type { Balance, Cashout, CommitAnswer, Played, Purchase, Receipt } from './types.js';
import { type Compatibility, checkManifest, checkRoundVersion } from './versions.js';

export interface ConnectOptions {
  /** The player: a viem account (or anything with address, signMessage, signTypedData). */
  account: ArcadeAccount;
  /** The most this client may spend on chips: base units (bigint) or a decimal of the token ("0.50"). None: no purchases. */
  maxSpend?: SpendCap;
  /** The house signer (and signed marks) to hold the arcade to; default: the manifest's, read now. */
  pin?: Partial<Pin>;
}

/** A round played and verified: `verified` is always true (else VerificationError was thrown). */
export interface Round {
  verified: true;
  bet_id: number;
  game: string;
  won: boolean;
  payout: number;
  profit: number;
  result: Record<string, unknown>;
  /** Chips after the round. */
  balance: number;
  /** True when the answer was a replay of the round already settled (an answer had been lost). */
  replayed: boolean;
  /** True when the round was the one the previous play opened (`next_round`): no commit was asked for. */
  chained: boolean;
  receipt: Played;
  verdict: Verdict;
  /** Milliseconds: the whole call, and of it the client-side verification; answers asked for. */
  timings: { total_ms: number; verify_ms: number; tries: number };
}

/** What `verify(betId)` answers (a failed verdict throws VerificationError instead). */
export interface BetCheck {
  /** True when the verdict is a pass; false when consistent but not proven (see `verdict.reason`). */
  verified: boolean;
  verdict: Verdict;
  receipt: Receipt | null;
}

/** Statement signatures the server no longer accepts: sign the current statement again. */
const STALE_SIGNATURE = new Set(['signature_revoked', 'signature_mismatch']);

/** A round opened by a play is left for a fresh commit this long before it expires. */
const SUCCESSOR_MARGIN_MS = 5_000;

type Call = FlipCall | DiceCall | RouletteCall | LimboCall;

export class Arcade {
  private statement: Promise<Hex> | null = null;
  /** Rounds this session's plays opened (`next_round`), verified answers only; one per play. */
  private successors: CommitAnswer[] = [];

  private constructor(
    readonly url: string,
    private readonly account: ArcadeAccount,
    private readonly verifier: Verifier,
    private readonly purse: Purse,
    /** What the manifest announced of its versions (each checked against this package's). */
    readonly compatibility: Compatibility,
  ) {}

  /** Reads the manifest, checks its versions, and pins its signer and signing domain. */
  static async connect(url: string, options: ConnectOptions): Promise<Arcade> {
    const base = new URL(url).href;
    const manifest = await requestJson<any>(base, 'GET', '/api/arcade/manifest');
    const compatibility = checkManifest(manifest);
    const verifier = await Verifier.open(base, manifest, options.pin);
    const purse = new Purse(options.account, manifest, options.maxSpend);
    return new Arcade(base, options.account, verifier, purse, compatibility);
  }

  /** The player's address. */
  get address(): Hex {
    return this.account.address;
  }

  /** The house signer every round is checked against, pinned at connect. */
  get signer(): string {
    return this.verifier.pin.signer;
  }

  /** What is left of the spending cap, in the token's base units. */
  get spendable(): bigint {
    return this.purse.remaining;
  }

  /** The spending cap (`maxSpend`), in the token's base units. */
  get spendCap(): bigint {
    return this.purse.cap;
  }

  /** The token's decimals: amounts in base units are this many digits past the point. */
  get decimals(): number {
    return this.purse.decimals;
  }

  /** Buys chips of `tier` (micro, small, medium, …) over x402; SpendingCapError above the cap. */
  buyChips(tier = 'small'): Promise<Purchase> {
    return this.purse.buy(this.url, tier);
  }

  flip(call: FlipCall): Promise<Round> {
    return this.play('flip', call);
  }

  dice(call: DiceCall): Promise<Round> {
    return this.play('dice', call);
  }

  roulette(call: RouletteCall): Promise<Round> {
    return this.play('roulette', call);
  }

  limbo(call: LimboCall): Promise<Round> {
    return this.play('limbo', call);
  }

  balance(): Promise<Balance> {
    return requestJson<Balance>(this.url, 'GET', `/api/arcade/balance/${this.address}`);
  }

  /**
   * Redeems `chips` (paid chips only) for the token, sent to the player's address. Sent under a
   * fresh idempotency key (or `idempotencyKey`), so an answer lost in transit is asked for again
   * and the arcade answers the same cashout: never a second transfer.
   */
  async cashout(chips: number, options: { idempotencyKey?: string } = {}): Promise<Cashout> {
    const idempotency_key = options.idempotencyKey ?? crypto.randomUUID();
    return this.signed(async (signature) => {
      const body = { address: this.address, chips, signature, idempotency_key };
      return (await requestRetrying<Cashout>(this.url, '/api/arcade/cashout', body)).answer;
    });
  }

  /**
   * Any bet, as the arcade serves it now, under the pinned signer (the manifest read again).
   * Throws VerificationError when a check fails; `verified` false when not proven.
   */
  async verify(betId: number): Promise<BetCheck> {
    const { verdict, receipt } = await this.verifier.checkBet(betId);
    if (verdict.verdict === 'fail') requirePass(verdict, receipt);
    return { verified: verdict.verdict === 'pass', verdict, receipt };
  }

  /**
   * The floor audited as the audit command does (every receipt of the feed, every seed batch),
   * with `address`'s rounds (default: the player's; null: everyone's) counted apart: their
   * checks and their return to player beside the exact expectation. `limit`: the last N rounds.
   */
  audit(options: { address?: string | null; limit?: number | null } = {}): Promise<AuditReport> {
    const address = options.address === undefined ? this.address : options.address;
    return this.verifier.audit(address, options.limit ?? null);
  }

  /** The statement signature of this session (signed once; again only when the server rotated it). */
  private session(fresh = false): Promise<Hex> {
    if (fresh || this.statement === null) {
      this.statement = (async () => {
        const { statement } = await requestJson<{ statement: string }>(this.url, 'GET', `/api/arcade/auth-statement/${this.address}`);
        return this.account.signMessage({ message: statement });
      })();
      this.statement.catch(() => { this.statement = null; });
    }
    return this.statement;
  }

  /** `call` with the session's statement signature; signed again once if the server rotated it. */
  private async signed<T>(call: (signature: Hex) => Promise<T>): Promise<T> {
    try {
      return await call(await this.session());
    } catch (error) {
      if (!(error instanceof ArcadeError && STALE_SIGNATURE.has(error.code))) throw error;
      return call(await this.session(true));
    }
  }

  /**
   * The round to play: one a verified play opened for this address (while it is well within its
   * time), else a fresh commit. `chained` says which.
   */
  private async roundToPlay(): Promise<{ commit: CommitAnswer; chained: boolean }> {
    for (let next = this.successors.pop(); next; next = this.successors.pop()) {
      if (Date.parse(next.expires_at) - Date.now() > SUCCESSOR_MARGIN_MS) return { commit: next, chained: true };
    }
    const commit = await this.signed((signature) => requestJson<CommitAnswer>(this.url, 'POST', '/api/arcade/commit', { address: this.address, signature }));
    return { commit, chained: false };
  }

  /**
   * A round played on the next round (see `roundToPlay`). Once a Play is signed for a round,
   * this call plays that round or nothing: a successor refused as expired (a rotation expires
   * every open round) is an ArcadeError naming it, the rounds kept are let go, and the next
   * call commits afresh. (Playing another round in its place here would let an arcade hide a
   * round it would lose by calling it expired, and re-roll it unseen.)
   */
  private async play(endpoint: Endpoint, call: Call): Promise<Round> {
    const started = performance.now();
    const { commit, chained } = await this.roundToPlay();
    try {
      return await this.playOn(commit, chained, endpoint, call, started);
    } catch (error) {
      if (chained && error instanceof ArcadeError && error.code === 'round_expired') this.successors = [];
      throw error;
    }
  }

  /**
   * Sign the Play of `commit`, play it asking for its successor (asking again while the answer
   * is lost: the statement signature on the play lets a replay carry the successor too), verify
   * it against the commit answer and the play sent. The successor is kept apart from the
   * receipt (an open round's id is for its owner alone) and kept whatever the verdict: it is
   * judged as any round when it is played.
   */
  private async playOn(commit: CommitAnswer, chained: boolean, endpoint: Endpoint, call: Call, started: number): Promise<Round> {
    checkRoundVersion(commit.fairness_version);
    const shape = shapeOf(endpoint, call);
    const clientSeed = call.clientSeed ?? randomClientSeed();
    const game = GAME_OF[endpoint];
    const play = {
      round_id: commit.round_id, address: commit.address, commitment: commit.commitment,
      game, client_seed: clientSeed, wager: call.wager, params: shape.playParams,
    };
    const typed = JSON.parse(modules().proofs.playTypedData(JSON.stringify(play), JSON.stringify(this.verifier.domain)));
    const fields = { round_id: commit.round_id, client_seed: clientSeed, wager: call.wager, ...shape.body, play_signature: await this.account.signTypedData(typed), next_round: true };
    const { answer, tries } = await this.signed((signature) => requestRetrying<Played>(this.url, `/api/arcade/${endpoint}`, { ...fields, signature }));
    const { next_round: successor, ...receipt } = answer;
    if (successor) this.successors.push(successor);
    const { verdict, ms } = await this.verifier.checkPlay(receipt, commit, this.address, { game, client_seed: clientSeed, wager: call.wager });
    const { bet_id, won, payout, profit, result, balance, replayed } = receipt;
    return {
      verified: true, bet_id, game: receipt.game, won, payout, profit, result, balance, replayed, chained, receipt, verdict,
      timings: { total_ms: performance.now() - started, verify_ms: ms, tries },
    };
  }
}
