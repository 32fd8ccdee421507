-- The house's signed marks (docs/proofs.md, "Signed marks"): made once per deployment, by the
-- first instance to start with this schema, before it settles a play, and never changed. Every
-- instance publishes the one row. `signed_from`: every bet from it on carries its proofs (seed
-- batch, signed commitment, signed receipt). `house_agent_signed_from`: every bet from it on is
-- signed with the `Receipt` type that includes `house_agent`. `signature` is the house's
-- EIP-712 signature of both (`SignedMarks`), made when the row was inserted.
CREATE TABLE signed_marks (
    id                      BIGINT PRIMARY KEY CHECK (id = 1),
    signed_from             BIGINT NOT NULL CHECK (signed_from >= 1),
    house_agent_signed_from BIGINT NOT NULL CHECK (house_agent_signed_from >= signed_from),
    signature               TEXT   NOT NULL,
    created_at              BIGINT NOT NULL
);

-- Whether the bet was played by one of the house's own wallets, as it was signed at settlement:
-- the receipt's `house_agent` must stay what the house signed, whatever the settings say later.
-- Bets settled before this column existed keep NULL ("not recorded"): their receipts say what
-- the settings say now, as they always did, and their signatures do not cover it.
ALTER TABLE bets ADD COLUMN house_agent BOOLEAN;
