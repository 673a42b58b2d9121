-- The writes that /readyz and the resolution of a lost COMMIT make to learn whether writes commit now: each inserts a
-- row in a transaction of its own, whose COMMIT waits for a synchronous standby as every write's does. Inserts never
-- wait for each other (an update of one shared row would wait for every earlier probe still waiting for the standby);
-- each removes the rows older than a minute that no other transaction holds.
CREATE TABLE write_probe (
  written_at timestamptz NOT NULL DEFAULT now()
);
