-- What the public list of recent rounds shows of a round, kept in its bet's row, so the list
-- reads the newest bets alone: joined to `rounds` by their random text key, it took one lookup
-- per row in an index that grows a level deeper with the table. `rounds` keeps the originals
-- (a receipt with its server seed still reads them there); every bet copies them as it is
-- written, and the rows written before this migration copy them here.
ALTER TABLE bets ADD COLUMN commitment TEXT NOT NULL DEFAULT '';
ALTER TABLE bets ADD COLUMN committed_at BIGINT NOT NULL DEFAULT 0;
UPDATE bets SET
    commitment = (SELECT rounds.commitment FROM rounds WHERE rounds.id = bets.round_id),
    committed_at = (SELECT rounds.created_at FROM rounds WHERE rounds.id = bets.round_id);
