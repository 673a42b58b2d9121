-- pgkube storage: current objects, the change log, and the resourceVersion sequence.
--
-- The body column is the truth: namespace, name and uid are generated from it, and the triggers below give every
-- committed change (through the API or by plain SQL) a new resourceVersion and one change_log row.

CREATE SEQUENCE resource_version_seq AS bigint;

CREATE TABLE objects (
    api_group        text        NOT NULL,  -- '' for the core group
    resource         text        NOT NULL,  -- plural, e.g. 'deployments'
    namespace        text        NOT NULL GENERATED ALWAYS AS (COALESCE(body #>> '{metadata,namespace}', '')) STORED,
    name             text        NOT NULL GENERATED ALWAYS AS (body #>> '{metadata,name}') STORED,
    uid              text                 GENERATED ALWAYS AS (body #>> '{metadata,uid}') STORED,
    resource_version bigint      NOT NULL,  -- set by trigger
    created_at       timestamptz NOT NULL,  -- set by trigger
    updated_at       timestamptz NOT NULL,  -- set by trigger
    body             jsonb       NOT NULL,  -- the object, without metadata.resourceVersion and metadata.selfLink
    PRIMARY KEY (api_group, resource, namespace, name)
);

CREATE TABLE change_log (
    resource_version bigint      PRIMARY KEY,
    event_type       text        NOT NULL CHECK (event_type IN ('ADDED', 'MODIFIED', 'DELETED')),
    api_group        text        NOT NULL,
    resource         text        NOT NULL,
    namespace        text        NOT NULL,
    name             text        NOT NULL,
    uid              text,
    object           jsonb       NOT NULL,  -- the new state; for DELETED the last state
    previous_object  jsonb,                 -- the state before a MODIFIED change
    changed_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX change_log_resource_idx ON change_log (api_group, resource, resource_version);
CREATE INDEX change_log_changed_at_idx ON change_log (changed_at);

-- Every writer takes this transaction-scoped lock before it draws a resourceVersion and keeps it until it commits.
-- So a transaction holding a smaller resourceVersion has always committed before any larger one is drawn: the order
-- of resourceVersions is the order in which changes become visible, which the change feed relies on.
CREATE FUNCTION pgkube_next_resource_version() RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(7365, 1);  -- (pgkube, resourceVersion allocation)
    RETURN nextval('resource_version_seq');
END $$;

CREATE FUNCTION objects_stamp_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.body = OLD.body AND NEW.api_group = OLD.api_group AND NEW.resource = OLD.resource THEN
        RETURN NULL;  -- an identical write changes nothing: no new resourceVersion, no change_log row
    END IF;
    NEW.resource_version := pgkube_next_resource_version();
    NEW.updated_at := now();
    IF TG_OP = 'INSERT' THEN
        NEW.created_at := now();
    ELSE
        NEW.created_at := OLD.created_at;
    END IF;
    RETURN NEW;
END $$;

CREATE FUNCTION objects_log_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO change_log (resource_version, event_type, api_group, resource, namespace, name, uid, object)
        VALUES (NEW.resource_version, 'ADDED', NEW.api_group, NEW.resource, NEW.namespace, NEW.name, NEW.uid, NEW.body);
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO change_log (resource_version, event_type, api_group, resource, namespace, name, uid, object, previous_object)
        VALUES (NEW.resource_version, 'MODIFIED', NEW.api_group, NEW.resource, NEW.namespace, NEW.name, NEW.uid, NEW.body, OLD.body);
    ELSE
        INSERT INTO change_log (resource_version, event_type, api_group, resource, namespace, name, uid, object)
        VALUES (pgkube_next_resource_version(), 'DELETED', OLD.api_group, OLD.resource, OLD.namespace, OLD.name, OLD.uid, OLD.body);
    END IF;
    PERFORM pg_notify('pgkube_changes', '');  -- a hint only; identical notifications in one transaction collapse
    RETURN NULL;
END $$;

CREATE TRIGGER objects_stamp_version BEFORE INSERT OR UPDATE ON objects
    FOR EACH ROW EXECUTE FUNCTION objects_stamp_version();
CREATE TRIGGER objects_log_change AFTER INSERT OR UPDATE OR DELETE ON objects
    FOR EACH ROW EXECUTE FUNCTION objects_log_change();
