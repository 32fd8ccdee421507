-- The player's EIP-712 `Play` signature of a bet (docs/proofs.md, "Play"): the commitment they
-- were shown and the call they played, signed before the outcome existed, checked before the
-- play settled. NULL for a play sent without one (and for every bet settled before this column).
ALTER TABLE bets ADD COLUMN play_signature TEXT;
