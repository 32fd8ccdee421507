-- Safe out of the box, and after a restore.

-- Secrets a deployment generated for itself because none was set (`signing.key`,
-- `seeds.secret`, `auth.secret`): every instance sharing the database reads the same value.
CREATE TABLE deployment_secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT   NOT NULL,
    created_at BIGINT NOT NULL
);

-- Every batch's seeds depend on 32 random bytes drawn when the batch is created (`salt`, hex),
-- and a batch is taken from only by the running instance that published it (`owner`, a random
-- id per process). A database restored from a backup, or wiped with the secret kept, holds
-- batches whose later seeds were revealed after the backup; no instance started afterwards
-- continues them. Batches published before this have neither and are never taken from again.
ALTER TABLE seed_batches ADD COLUMN salt TEXT;
ALTER TABLE seed_batches ADD COLUMN owner TEXT;
CREATE INDEX seed_batches_by_owner ON seed_batches (owner, created_at);

-- Every running instance, with a heartbeat it counts up: an instance starting while no other
-- beats, or one whose own count goes back (a restore under it), expires every open round, since
-- a restored database can hold open rounds that were played or expired after the backup, their
-- seeds revealed.
CREATE TABLE instances (
    id         TEXT PRIMARY KEY,
    beat       BIGINT NOT NULL,
    started_at BIGINT NOT NULL
);
