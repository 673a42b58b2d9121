-- Every list hides objects with pending initializers: `(body -> 'metadata' -> 'initializers') IS NULL`. Without
-- statistics on that expression the planner guesses that 0.5 % of the rows pass it, and so reads a page of 500 by
-- scanning and sorting the whole table instead of walking the primary key in order and stopping after 500.
-- Statistics on the expression (gathered by ANALYZE, as autovacuum runs it) give it the true fraction.
CREATE STATISTICS objects_initializers_stats ON ((body -> 'metadata' -> 'initializers')) FROM objects;
