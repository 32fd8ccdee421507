-- What the money rules need to decide from the chain alone.

-- The block a payment's nonce was checked unused at (less a margin for a lagging RPC): if the
-- token later reports the nonce used, the transaction that used it is looked for in the token's
-- logs from here on.
ALTER TABLE payments ADD COLUMN from_block BIGINT NOT NULL DEFAULT 0;

-- Chips granted for free to the wallet, in all. They are play money: a cashout may take only
-- what is above them (`chips - free_granted`).
ALTER TABLE wallets ADD COLUMN free_granted BIGINT NOT NULL DEFAULT 0 CHECK (free_granted >= 0);
UPDATE wallets SET free_granted = (
    SELECT COALESCE(SUM(delta), 0) FROM ledger
    WHERE ledger.address = wallets.address AND ledger.kind = 'free'
);

-- Every transaction the house key signed, journalled before its broadcast: settlements of
-- purchases and cashout transfers. Only one transaction per nonce can ever be mined, so a mined
-- one (deep enough) is what proves that another with its nonce never will be.
CREATE TABLE house_transactions (
    hash       TEXT PRIMARY KEY,
    nonce      BIGINT NOT NULL,
    purpose    TEXT   NOT NULL CHECK (purpose IN ('settlement', 'cashout')),
    reference  TEXT   NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX house_transactions_by_nonce ON house_transactions (nonce);
