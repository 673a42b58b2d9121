-- The garbage collector looks up the dependents of each object it deletes, orphans or sweeps for
-- (src/gc/object-graph.ts, dependentsOf). The index of 0004 held every object, owners or not, and with GIN's fast
-- update each insert went to the index's pending list, which every lookup reads whole until a vacuum or a full list
-- (gin_pending_list_limit, 4 MB) merges it: over 200,000 objects without owners a lookup took ~2 ms, about half of
-- PostgreSQL's CPU per delete. The index now holds only the objects that have owner references (the lookup repeats
-- the condition, so the planner can use it), and takes each into its tree at once.
DROP INDEX objects_owner_references_idx;
CREATE INDEX objects_owner_references_idx ON objects
    USING gin ((body -> 'metadata' -> 'ownerReferences') jsonb_path_ops)
    WITH (fastupdate = off)
    WHERE body -> 'metadata' ? 'ownerReferences';
