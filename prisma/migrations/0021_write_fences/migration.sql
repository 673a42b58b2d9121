-- A write batch whose answer is lost (the connection dropped before or after COMMIT, or no answer within the bound)
-- gets its true outcome from a fence. Each batch carries a random token, which pgkube_write_batch inserts last, with
-- the versions it answers, in the batch's own transaction. The resolution inserts the same token on a connection of
-- its own (INSERT ... ON CONFLICT DO NOTHING): while the batch's transaction holds the token, even committed locally
-- and waiting for the synchronous standby, the insert waits behind it (a unique-index conflict waits for the
-- transaction holding the key); a conflict then says the batch committed (and its row holds the versions); a row
-- inserted says it did not commit and now never can (its own insert of the token fails, rolling it back). A primary
-- promoted from a standby that lacks the batch answers "not committed", which is true there. A fence is needed for
-- seconds only; the compaction removes those older than minutes.
CREATE TABLE write_fences (
    token      uuid        PRIMARY KEY,
    versions   bigint[],                          -- what the batch answered; NULL for a resolution's own fence
    written_at timestamptz NOT NULL DEFAULT now()
);
-- No index on written_at: a batch pays one index insert; the pruning scans a table of a few minutes' batches.

-- 0009's batch, with the fence's token as an eighth argument. Its insert comes after the writes, under the
-- resourceVersion lock; it can wait only for a resolution's insert of the same token, which holds no other lock.
CREATE FUNCTION pgkube_write_batch(
    writes            text[],
    api_groups        text[],
    resources         text[],
    namespaces        text[],
    names             text[],
    expected_versions bigint[],
    bodies            jsonb,
    fence             uuid
) RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
    versions bigint[] := '{}';
    written  bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(7365, 1);  -- (pgkube, resourceVersion allocation)
    FOR k IN 1 .. cardinality(writes) LOOP
        written := NULL;
        CASE writes[k]
        WHEN 'create' THEN
            INSERT INTO objects (api_group, resource, body) VALUES (api_groups[k], resources[k], bodies -> (k - 1))
            ON CONFLICT DO NOTHING
            RETURNING resource_version INTO written;
        WHEN 'update' THEN
            UPDATE objects SET body = bodies -> (k - 1)
            WHERE api_group = api_groups[k] AND resource = resources[k] AND namespace = namespaces[k] AND name = names[k]
              AND resource_version = expected_versions[k]
            RETURNING resource_version INTO written;
        WHEN 'delete' THEN
            DELETE FROM objects
            WHERE api_group = api_groups[k] AND resource = resources[k] AND namespace = namespaces[k] AND name = names[k]
              AND resource_version = expected_versions[k]
            RETURNING resource_version INTO written;
        END CASE;
        versions := array_append(versions, written);
    END LOOP;
    IF fence IS NOT NULL THEN
        INSERT INTO write_fences (token, versions) VALUES (fence, versions);
    END IF;
    RETURN versions;
END $$;

-- The seven-argument form stays for instances of the previous release during a rolling upgrade (their writes carry no
-- fence; they resolve a lost COMMIT by its transaction id). Replaced in place, it keeps its identity, so their
-- prepared statements keep working; a later migration drops it once no such instance is left.
CREATE OR REPLACE FUNCTION pgkube_write_batch(
    writes            text[],
    api_groups        text[],
    resources         text[],
    namespaces        text[],
    names             text[],
    expected_versions bigint[],
    bodies            jsonb
) RETURNS bigint[]
LANGUAGE sql AS $$
    SELECT pgkube_write_batch(writes, api_groups, resources, namespaces, names, expected_versions, bodies, NULL::uuid)
$$;
