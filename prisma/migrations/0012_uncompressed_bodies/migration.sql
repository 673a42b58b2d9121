-- Bodies stay in their row, uncompressed, up to a page (8160 bytes). With the default target (2032 bytes) a
-- Deployment of ~4 KB as JSONB was compressed with pglz and moved to the TOAST table on every write, twice (objects
-- and change_log), and fetched and decompressed again for every reference to it on read (a GET's output columns
-- refer to the body three times). That was about a quarter of PostgreSQL's CPU per create and per GET. Larger
-- bodies, and change_log rows holding two states, are still compressed and moved out of line. Rows written before
-- this migration keep their form until they are next written.
ALTER TABLE objects SET (toast_tuple_target = 8160);
ALTER TABLE change_log SET (toast_tuple_target = 8160);
