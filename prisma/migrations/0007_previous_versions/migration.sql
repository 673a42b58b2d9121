-- The resourceVersion an object had before each MODIFIED and DELETED change, so that the state of a kind at a past
-- resourceVersion S can be rebuilt from `objects` and the changes after S (consistent list pages and
-- resourceVersionMatch=Exact): an object changed after S was, at S, the state its first change after S replaced,
-- at the version recorded here. A row leaves with its change when the log is compacted.
CREATE TABLE change_log_previous_versions (
    resource_version          bigint PRIMARY KEY REFERENCES change_log ON DELETE CASCADE,
    previous_resource_version bigint NOT NULL
);

-- Changes logged before this migration: the version of the key's change before them, where the log still has it;
-- otherwise the compaction horizon, the newest version that earlier change can have had.
INSERT INTO change_log_previous_versions (resource_version, previous_resource_version)
SELECT resource_version, COALESCE(previous, (SELECT compacted_through FROM change_log_compaction))
FROM (SELECT resource_version, event_type,
             lag(resource_version) OVER (PARTITION BY api_group, resource, namespace, name ORDER BY resource_version) AS previous
      FROM change_log) c
WHERE event_type <> 'ADDED';

CREATE FUNCTION objects_log_previous_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO change_log_previous_versions (resource_version, previous_resource_version)
    SELECT MAX(resource_version), OLD.resource_version FROM change_log
    WHERE api_group = OLD.api_group AND resource = OLD.resource AND namespace = OLD.namespace AND name = OLD.name;
    RETURN NULL;
END $$;

-- Runs after objects_log_change (triggers of one event fire in name order), so the change it names is logged.
CREATE TRIGGER objects_log_previous_version AFTER UPDATE OR DELETE ON objects
    FOR EACH ROW EXECUTE FUNCTION objects_log_previous_version();
