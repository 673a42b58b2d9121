-- What the garbage collector looks up: objects by uid (is an owner still there?), dependents by the uid in their
-- ownerReferences, objects marked for deletion, and objects that have owners at all (for its periodic sweep).
CREATE INDEX objects_uid_idx ON objects (uid);
CREATE INDEX objects_owner_references_idx ON objects USING gin ((body -> 'metadata' -> 'ownerReferences') jsonb_path_ops);
CREATE INDEX objects_being_deleted_idx ON objects (api_group, resource) WHERE body -> 'metadata' ? 'deletionTimestamp';
CREATE INDEX objects_with_owners_idx ON objects (api_group, resource) WHERE body -> 'metadata' ? 'ownerReferences';
