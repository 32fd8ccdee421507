-- The books follow the chain. Per house key: every house transaction with a nonce below
-- `next_nonce` that moved the token is in the books (the journal knows its hash), and the
-- token's logs are read up to `block`. The row is restored with the rest of the database:
-- after a restore it points back before whatever the copy forgot, and the next pass finds each
-- forgotten house transaction again, in nonce order, before any cashout is sent.
CREATE TABLE house_books (
    sender     TEXT   PRIMARY KEY,
    next_nonce BIGINT NOT NULL,
    block      BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
