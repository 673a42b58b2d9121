-- The histories of changes the database has had. A promoted standby (asynchronous replication) or a restored backup
-- can lack changes that pgkube already served, and its sequence would hand their resourceVersions out again. pgkube
-- notices the database's new identity (its system identifier, or its timeline: a promotion or a point-in-time
-- restore starts a new one), and before any write of the new history it "adopts" it: one row here, written under the
-- resourceVersion lock together with the sequence moved past every value served before (see
-- src/storage/database/database-history.ts). The resourceVersions after diverged_after and before resumed_at belong
-- to no change of the database any more: watches, continue tokens and Exact reads at them are answered 410.
CREATE TABLE database_history (
    epoch             integer     PRIMARY KEY,
    system_identifier text        NOT NULL,  -- pg_control_system()
    timeline          integer     NOT NULL,  -- the timeline writes go to (pgkube_timeline)
    diverged_after    bigint      NOT NULL,  -- the newest change this history shares with the one before
    resumed_at        bigint      NOT NULL,  -- the first resourceVersion this history hands out
    adopted_at        timestamptz NOT NULL DEFAULT now()
);

-- The timeline of the WAL being written now (the first 8 hex digits of the current WAL file's name). It changes the
-- moment a standby is promoted, unlike pg_control_checkpoint()'s, which waits for the next checkpoint. Fails on a
-- standby (no WAL written there), where no write can run anyway.
CREATE FUNCTION pgkube_timeline() RETURNS integer
LANGUAGE sql VOLATILE AS $$
    SELECT ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::integer
$$;

INSERT INTO database_history (epoch, system_identifier, timeline, diverged_after, resumed_at)
SELECT 1, system_identifier::text, pgkube_timeline(), 0, 0 FROM pg_control_system();

-- 0001's allocation, refusing a resourceVersion while the database writes on a timeline pgkube has not adopted: a
-- write of a promoted standby waits (SQLSTATE PKH01, which pgkube retries) until an instance has moved the sequence
-- past what was served. The timeline is compared, not the system identifier (read from a file); a restore into a new
-- cluster on the same timeline number is caught by the instances' own check at start and every second.
CREATE OR REPLACE FUNCTION pgkube_next_resource_version() RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(7365, 1);  -- (pgkube, resourceVersion allocation)
    IF pgkube_timeline() IS DISTINCT FROM (SELECT timeline FROM database_history ORDER BY epoch DESC LIMIT 1) THEN
        RAISE EXCEPTION 'the database writes on a timeline pgkube has not adopted yet (a failover or a restore)'
            USING ERRCODE = 'PKH01';
    END IF;
    RETURN nextval('resource_version_seq');
END $$;
