-- Two pockets of one balance: `chips` stays the whole balance, and `free_chips` is the part of it
-- that is play money (granted for free, or won back by free chips staked); the rest,
-- `chips - free_chips`, is paid and is all a cashout may take. A wager stakes free chips first;
-- a win goes back to each pocket in proportion to its stake, the free pocket's share rounded up
-- (`arcade_core::pockets`).
--
-- Existing wallets open with the free pocket `min(chips, free_granted)`, so what a cashout may
-- take is what it was (`chips - free_granted`, never below 0).
ALTER TABLE wallets ADD COLUMN free_chips BIGINT NOT NULL DEFAULT 0 CHECK (free_chips >= 0 AND free_chips <= chips);
UPDATE wallets SET free_chips = CASE WHEN chips < free_granted THEN chips ELSE free_granted END;

-- The change of the free pocket with each ledger row: the grant's whole delta; a wager's free
-- stake (negative) and a win's free share; 0 for purchases, cashouts and refunds.
ALTER TABLE ledger ADD COLUMN free_delta BIGINT NOT NULL DEFAULT 0;
UPDATE ledger SET free_delta = delta WHERE kind = 'free';

-- The free pocket before the first row of the ledger that carries `free_delta`, so that
-- `free_chips = free_opening + SUM(ledger.free_delta)` holds for every wallet, opened before
-- this migration or after it (then 0).
ALTER TABLE wallets ADD COLUMN free_opening BIGINT NOT NULL DEFAULT 0;
UPDATE wallets SET free_opening = free_chips - (
    SELECT COALESCE(SUM(free_delta), 0) FROM ledger WHERE ledger.address = wallets.address
);

-- Chips of a bet's wager and of its payout that were play money: taken from and paid back to
-- the free pocket. Bets settled before this migration show 0.
ALTER TABLE bets ADD COLUMN free_wagered BIGINT NOT NULL DEFAULT 0 CHECK (free_wagered >= 0 AND free_wagered <= wager);
ALTER TABLE bets ADD COLUMN free_paid BIGINT NOT NULL DEFAULT 0 CHECK (free_paid >= 0 AND free_paid <= payout);
