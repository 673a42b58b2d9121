-- The writes of one group commit (src/registry/store/group-commit.ts) in one statement, so one round trip and, in
-- autocommit, one commit: the k-th write is writes[k] ('create', 'update' or 'delete') of the object at
-- (api_groups[k], resources[k], namespaces[k], names[k]); an update or delete only if the object still has
-- expected_versions[k]; bodies is a JSON array whose k-th element is the new body (null for a delete).
-- Answers, in order, the resourceVersion each write gave its row, or NULL where it wrote nothing: a create whose name
-- is taken, a compare-and-swap that lost (or an identical update, which the trigger skips), a delete of nothing.
-- The writes run one after the other, each seeing the ones before it. The resourceVersion lock is taken first, before
-- any row lock: an UPDATE or DELETE would otherwise lock its row and then wait for the lock, while a batch holding the
-- lock waits for that row.
CREATE FUNCTION pgkube_write_batch(
    writes            text[],
    api_groups        text[],
    resources         text[],
    namespaces        text[],
    names             text[],
    expected_versions bigint[],
    bodies            jsonb
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
    RETURN versions;
END $$;

-- The version of the change just logged for the row (objects_log_change runs first, triggers of one event fire in
-- name order): an update's new resourceVersion, or the one a delete's change drew, which is this session's last from
-- the sequence. 0007 looked it up as the newest change_log row of the key, a backward walk over every change of the
-- kind since the key's last one: milliseconds per write once the log holds thousands of changes, while the write
-- holds the resourceVersion lock.
CREATE OR REPLACE FUNCTION objects_log_previous_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO change_log_previous_versions (resource_version, previous_resource_version)
    VALUES (CASE WHEN TG_OP = 'UPDATE' THEN NEW.resource_version ELSE currval('resource_version_seq') END, OLD.resource_version);
    RETURN NULL;
END $$;
