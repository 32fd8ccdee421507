-- The arcade's schema, version 1. Portable SQL for SQLite and PostgreSQL; `{id}` stands for the
-- backend's auto-increment integer primary key. Times are milliseconds since the Unix epoch (UTC).
-- Addresses are stored as 0x + 40 lowercase hex; responses checksum them.

-- One row per address that ever held chips. `chips` changes only together with a ledger row.
CREATE TABLE wallets (
    address      TEXT PRIMARY KEY,
    chips        BIGINT  NOT NULL DEFAULT 0 CHECK (chips >= 0),
    bought_in    BOOLEAN NOT NULL DEFAULT FALSE,
    free_claimed BOOLEAN NOT NULL DEFAULT FALSE,
    -- Net winnings (sum of profits) on UTC day `net_day` (days since the epoch), for the daily cap.
    net_day      BIGINT  NOT NULL DEFAULT 0,
    net_today    BIGINT  NOT NULL DEFAULT 0,
    created_at   BIGINT  NOT NULL
);

-- Every chip movement; a wallet's chips always equal the sum of its deltas.
CREATE TABLE ledger (
    id            {id},
    address       TEXT   NOT NULL REFERENCES wallets (address),
    kind          TEXT   NOT NULL CHECK (kind IN ('free', 'purchase', 'wager', 'win', 'cashout', 'refund')),
    delta         BIGINT NOT NULL CHECK (delta <> 0),
    balance_after BIGINT NOT NULL CHECK (balance_after >= 0),
    reference     TEXT   NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX ledger_by_address ON ledger (address, id);

-- A round is opened by commit with a secret seed and spent once by a game call.
CREATE TABLE rounds (
    id          TEXT PRIMARY KEY,
    address     TEXT   NOT NULL,
    server_seed TEXT   NOT NULL,
    commitment  TEXT   NOT NULL,
    state       TEXT   NOT NULL CHECK (state IN ('open', 'spent')),
    created_at  BIGINT NOT NULL,
    spent_at    BIGINT
);
CREATE INDEX rounds_by_address ON rounds (address, created_at);

-- A settled round: the receipt's fields. `params` and `result` hold the receipt's JSON objects.
CREATE TABLE bets (
    id          {id},
    round_id    TEXT    NOT NULL UNIQUE REFERENCES rounds (id),
    address     TEXT    NOT NULL,
    game        TEXT    NOT NULL CHECK (game IN ('coinflip', 'dice', 'roulette')),
    client_seed TEXT    NOT NULL,
    nonce       BIGINT  NOT NULL,
    wager       BIGINT  NOT NULL CHECK (wager > 0),
    params      TEXT    NOT NULL,
    result      TEXT    NOT NULL,
    won         BOOLEAN NOT NULL,
    payout      BIGINT  NOT NULL CHECK (payout >= 0),
    profit      BIGINT  NOT NULL,
    settled_at  BIGINT  NOT NULL
);
CREATE INDEX bets_by_game ON bets (game);
CREATE INDEX bets_by_address ON bets (address);
