-- The books follow the chain. Per house key: every nonce below `next_nonce` is matched to a
-- journalled transaction (one the arcade signed, or one the chain showed it had forgotten and
-- that was recorded again, its chips moved), and by `block` the nonce `next_nonce` was not yet
-- mined (where the search for it starts). The row is restored with the rest of the database:
-- after a restore it points back before whatever the copy forgot, and the next pass finds each
-- forgotten house transaction again, in chain order, before any cashout is sent.
CREATE TABLE house_books (
    sender     TEXT   PRIMARY KEY,
    next_nonce BIGINT NOT NULL,
    block      BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
