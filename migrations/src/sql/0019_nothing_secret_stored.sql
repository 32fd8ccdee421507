-- Nothing secret stays in the database, so a backup alone reveals no unplayed seed and cannot
-- sign as the house.

-- Secrets live outside it (a setting, a file, a systemd credential, or a file of mode 0600 the
-- service generated in its state directory); it keeps only a fingerprint of each (sha256 over
-- the name and the value), so an instance started with another secret than the deployment's
-- refuses to start. `deployment_secrets` (0012) is read only to carry older deployments over:
-- `arcade secrets export` writes its values into files and erases its rows.
CREATE TABLE secret_fingerprints (
    name        TEXT PRIMARY KEY,
    fingerprint TEXT   NOT NULL,
    created_at  BIGINT NOT NULL
);

-- A round opened from now on stores no seed (''): it is derived from its batch and index with
-- the seeds secret when it is played and when it is revealed, and checked against the round's
-- commitment. The open rounds an older version stored seeds for are erased by the service at
-- start, each only once its derivation gives the committed seed (`SeedBatches::seal_open`),
-- which SQL cannot check; revealed seeds stay (they are public).
