-- How far the change log has been compacted: every change with a resource_version up to compacted_through may be
-- gone, so a watch that starts from an older resourceVersion is told its history is lost (410 Gone).
CREATE TABLE change_log_compaction (
    id                 integer     PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    compacted_through  bigint      NOT NULL DEFAULT 0,
    compacted_at       timestamptz
);
INSERT INTO change_log_compaction (id) VALUES (1);
