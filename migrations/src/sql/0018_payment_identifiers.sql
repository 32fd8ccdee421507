-- The x402 `payment-identifier` extension: the idempotency key a client sent with a payment
-- (16 to 128 of [A-Za-z0-9_-]), unique per payer across every instance on the database (a
-- payer's keys are its own: nobody else can hold or block one), and the
-- fingerprint of the payment it came with (keccak-256 of the signed authorization and its
-- signature), so the same key with another payment is told apart from a retry. NULL for a
-- payment sent without one (and for every payment made before these columns).
ALTER TABLE payments ADD COLUMN payment_identifier TEXT;
ALTER TABLE payments ADD COLUMN payment_fingerprint TEXT;
CREATE UNIQUE INDEX payments_by_identifier ON payments (payer, payment_identifier);
