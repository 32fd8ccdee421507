-- x402 chip purchases. One row per EIP-3009 authorization (payer, nonce) ever presented: the
-- unique key is what makes a replayed or raced authorization settle and credit at most once.
--   settling: reserved by one request; `tx_hash`/`raw_tx` are written before the broadcast
--   settled:  the transfer is on-chain and the chips are credited (same transaction as the row)
--   failed:   nothing moved on-chain (`error` says why); the same authorization may be retried
-- `settled_by` is who submits the settlement: the house (raw transaction journalled here) or an
-- x402 facilitator (the transaction is whatever it reports).
CREATE TABLE payments (
    id           {id},
    payer        TEXT   NOT NULL,
    nonce        TEXT   NOT NULL,
    tier         TEXT   NOT NULL,
    chips        BIGINT NOT NULL CHECK (chips > 0),
    amount       TEXT   NOT NULL,
    network      TEXT   NOT NULL,
    asset        TEXT   NOT NULL,
    pay_to       TEXT   NOT NULL,
    valid_before BIGINT NOT NULL,
    state        TEXT   NOT NULL CHECK (state IN ('settling', 'settled', 'failed')),
    settled_by   TEXT   NOT NULL CHECK (settled_by IN ('house', 'facilitator')),
    tx_hash      TEXT,
    raw_tx       TEXT,
    error        TEXT,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    UNIQUE (payer, nonce)
);
CREATE INDEX payments_by_state ON payments (state, id);
