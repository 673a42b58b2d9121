-- The write that /readyz and the resolution of a lost COMMIT make to learn whether writes commit now: one row,
-- updated in a transaction of its own, whose COMMIT waits for a synchronous standby as every write's does.
CREATE TABLE write_probe (
  id         int PRIMARY KEY CHECK (id = 1),
  written_at timestamptz NOT NULL
);
INSERT INTO write_probe VALUES (1, now());
