-- A round opened by the play that settled another (a play that asked for its successor,
-- `next_round`): the round whose play opened it, so a repeat of that call, proven by the
-- owner, answers the same successor. NULL for a round opened by a commit.
ALTER TABLE rounds ADD COLUMN predecessor_id TEXT;
CREATE INDEX rounds_by_predecessor ON rounds (predecessor_id) WHERE predecessor_id IS NOT NULL;
