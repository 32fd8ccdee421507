-- Open rounds by age, for the upkeep that expires them: only the open rows are indexed. The
-- index on (state, created_at) it replaces led SQLite's planner (which assumes an equality on
-- an index's first column matches about ten rows) to answer a play batch's
-- `id IN (…) AND state = 'open'` by scanning every open round instead of looking its ids up,
-- and it grew with every settled round.
DROP INDEX rounds_open_by_age;
CREATE INDEX rounds_open_by_age ON rounds (created_at) WHERE state = 'open' AND expired_at IS NULL;
