-- A cashout's `Idempotency-Key` (1 to 255 visible ASCII characters), unique per address across
-- every instance on the database: the same key from the same address is the same cashout, so a
-- retry after a lost answer answers the original and never sends a second transfer. NULL for a
-- cashout sent without one (and for every cashout made before this column).
ALTER TABLE cashouts ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX cashouts_by_idempotency_key ON cashouts (address, idempotency_key);
