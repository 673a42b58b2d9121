-- The notification of a change names its resource, as '<api_group>/<resource>' ('/deployments' for the core
-- group): a change feed reads the change log at once for a resource it serves promptly (a watch, RBAC) and lets the
-- others gather for a moment (the garbage collector's), instead of one read of the log per committed write. Still
-- only a hint: identical notifications in one transaction collapse, so a transaction sends one per resource it
-- changed, and the feed reads everything after its position whatever the payload.
CREATE OR REPLACE FUNCTION objects_log_change() RETURNS trigger
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
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('pgkube_changes', OLD.api_group || '/' || OLD.resource);
    ELSE
        PERFORM pg_notify('pgkube_changes', NEW.api_group || '/' || NEW.resource);
    END IF;
    RETURN NULL;
END $$;
