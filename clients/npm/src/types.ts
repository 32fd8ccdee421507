// The arcade's answers as this package reads them (docs/proofs.md, the OpenAPI document at
// /api/openapi.json). Amounts of chips are integers; token amounts are base-unit strings.

/** A signed EIP-712 object: the signature and the typed data it signs. */
export interface Signed {
  signature: string;
  typed_data: { domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; message: Record<string, unknown> };
}

/** Where a round's seed sits in a pre-committed seed batch, and the path proving it. */
export interface BatchPlace {
  batch_id: number;
  index: number;
  size: number;
  audit_path: string[];
}

/** The house's (and the player's) proofs on a receipt. */
export interface Proofs {
  batch: BatchPlace | null;
  commitment: Signed | null;
  receipt: Signed | null;
  play?: Signed | null;
}

/** `POST /api/arcade/commit`: the round opened for the player, its seed committed. */
export interface CommitAnswer {
  round_id: string;
  address: string;
  commitment: string;
  fairness_version: number;
  created_at: string;
  expires_at: string;
  proofs: { batch: BatchPlace | null; commitment: Signed | null };
}

/** A settled round, everything needed to re-derive it. */
export interface Receipt {
  bet_id: number;
  round_id: string;
  address: string;
  game: string;
  fairness_version: number;
  commitment: string;
  server_seed: string;
  client_seed: string;
  nonce: number;
  wager: number;
  params: Record<string, unknown>;
  result: Record<string, unknown>;
  won: boolean;
  payout: number;
  profit: number;
  settled_at: string;
  committed_at: string;
  house_agent: boolean;
  proofs: Proofs;
}

/** A game call's answer: the receipt, the balance after it, and whether it was a replay. */
export interface Played extends Receipt {
  balance: number;
  free_chips: number;
  replayed: boolean;
  /** Asked for with `next_round`: the address's next round, committed as a commit answers it. */
  next_round?: CommitAnswer;
}

/** `GET /api/arcade/balance/{address}`. */
export interface Balance {
  address: string;
  chips: number;
  bought_in: boolean;
  free_claimed: boolean;
  cashable: number;
  free_chips: number;
}

/** A purchase of chips over x402, credited to the paying address. */
export interface Purchase {
  address: string;
  tier: string;
  chips_credited: number;
  balance: number;
  tx_hash: string;
  amount: string;
  network: string;
  payment_id: number;
}

/** `POST /api/arcade/cashout`: chips redeemed for the token, sent on-chain by the house. */
export interface Cashout {
  cashout_id: number;
  /** Where the tokens go. */
  address: string;
  chips: number;
  /** Token base units, decimal. */
  amount: string;
  asset: string;
  network: string;
  /** `pending`, `sent`, `confirmed`, or `failed` (refunded). */
  status: string;
  tx_hash: string | null;
  error: string | null;
  /** Chips after the cashout (after the refund, if it failed). */
  balance: number;
}

/** One failed check of a verdict. */
export interface Failure {
  check: string;
  why: string;
}

/** A round's verdict, as every verifier of the arcade gives it. */
export interface Verdict {
  verdict: 'pass' | 'consistent, not proven' | 'fail';
  bet_id: number | null;
  signer: string | null;
  signer_pinned: boolean;
  player: string | null;
  /** The first failed check (null when none failed). */
  check: string | null;
  failures: Failure[];
  reason: string;
}
