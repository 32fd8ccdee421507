-- Proof a player can hold: seeds fixed in advance, and the house's signatures.

-- A batch of server seeds whose Merkle root (RFC 9162, over the seeds' commitments) was signed
-- and published before its first seed was used. Commits take `next_index` in order, each in
-- the transaction that inserts its round, so no index is used twice or skipped.
CREATE TABLE seed_batches (
    id          BIGINT PRIMARY KEY CHECK (id > 0),
    size        BIGINT NOT NULL CHECK (size > 0),
    next_index  BIGINT NOT NULL DEFAULT 0,
    merkle_root TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    signature   TEXT   NOT NULL,
    CHECK (next_index >= 0 AND next_index <= size)
);

-- Rounds opened before batches have no batch, index or signature.
ALTER TABLE rounds ADD COLUMN batch_id BIGINT REFERENCES seed_batches (id);
ALTER TABLE rounds ADD COLUMN seed_index BIGINT;
ALTER TABLE rounds ADD COLUMN commitment_signature TEXT;
CREATE UNIQUE INDEX rounds_by_seed ON rounds (batch_id, seed_index);

-- The house's EIP-712 signature of the settled receipt, made once in the play's transaction.
ALTER TABLE bets ADD COLUMN receipt_signature TEXT;
