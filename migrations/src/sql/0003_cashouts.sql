-- Cashouts: chips redeemed for the token, sent by the house with an ERC-20 `transfer`. An outbox:
-- each step is durable before the next.
--   pending:   chips debited (same transaction as the row); once signed, `tx_nonce`, `tx_hash` and
--              `raw_tx` are written before the broadcast
--   sent:      broadcast; waiting for the receipt
--   confirmed: mined with the required confirmations (final)
--   failed:    never paid: refunded in the same transaction that set it (final); `error` says why
CREATE TABLE cashouts (
    id         {id},
    address    TEXT   NOT NULL REFERENCES wallets (address),
    chips      BIGINT NOT NULL CHECK (chips > 0),
    amount     TEXT   NOT NULL,
    asset      TEXT   NOT NULL,
    network    TEXT   NOT NULL,
    status     TEXT   NOT NULL CHECK (status IN ('pending', 'sent', 'confirmed', 'failed')),
    tx_nonce   BIGINT,
    tx_hash    TEXT,
    raw_tx     TEXT,
    error      TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX cashouts_by_status ON cashouts (status, id);
CREATE INDEX cashouts_by_address ON cashouts (address, id);

-- One row. On PostgreSQL the process sending for the house key holds it `FOR UPDATE` from taking
-- a nonce to the broadcast, so several server instances send one at a time, in nonce order.
CREATE TABLE house_sender (
    id   INTEGER PRIMARY KEY,
    note TEXT NOT NULL
);
INSERT INTO house_sender (id, note) VALUES (1, 'held while a transaction from the house key is signed and broadcast');
