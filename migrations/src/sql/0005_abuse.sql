-- What a public, unauthenticated service needs to stay bounded and revocable.

-- An open round past `rounds.ttl` (or of an address that rotated its statement) is expired: it
-- can no longer be played. No chips were taken at commit, so nothing is owed.
ALTER TABLE rounds ADD COLUMN expired_at BIGINT;
CREATE INDEX rounds_open_by_age ON rounds (state, created_at);

-- Rounds each address holds open (commit counts up, play and expiry count down), so the cap
-- on them is one conditional update.
ALTER TABLE wallets ADD COLUMN open_rounds BIGINT NOT NULL DEFAULT 0 CHECK (open_rounds >= 0);
UPDATE wallets SET open_rounds = (
    SELECT COUNT(*) FROM rounds
    WHERE rounds.address = wallets.address AND rounds.state = 'open'
);

-- The auth statement's generations after the first (which is derived, and stored nowhere):
-- rotating adds one, and signatures of every older statement are then refused.
CREATE TABLE auth_generations (
    address    TEXT   NOT NULL,
    generation BIGINT NOT NULL CHECK (generation > 0),
    nonce      TEXT   NOT NULL,
    issued_at  BIGINT NOT NULL,
    PRIMARY KEY (address, generation)
);

-- The public statistics, folded in from the bets past `last_bet_id`, so a request reads a few
-- rows instead of scanning the bets. `scope` is `house` or `players`, as split by the house
-- wallets named in `floor_watermark.house_wallets` (the totals are refolded when they change).
CREATE TABLE floor_totals (
    scope    TEXT   NOT NULL CHECK (scope IN ('house', 'players')),
    game     TEXT   NOT NULL,
    rounds   BIGINT NOT NULL,
    wagered  BIGINT NOT NULL,
    paid_out BIGINT NOT NULL,
    PRIMARY KEY (scope, game)
);
CREATE TABLE floor_watermark (
    id          INTEGER PRIMARY KEY,
    last_bet_id   BIGINT NOT NULL,
    house_wallets TEXT   NOT NULL,
    folded_at     BIGINT NOT NULL
);
INSERT INTO floor_watermark (id, last_bet_id, house_wallets, folded_at) VALUES (1, 0, '', 0);
