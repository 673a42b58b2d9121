-- Label selectors are translated to containment (@>) and existence (?) tests on the labels of each object; this
-- index serves both, so a selective labelSelector does not scan every object of a kind.
CREATE INDEX objects_labels_idx ON objects USING gin ((body -> 'metadata' -> 'labels'));
