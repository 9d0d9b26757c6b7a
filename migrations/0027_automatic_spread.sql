-- The automatic spread (docs/guides/sharding.md "Automatic spread"). Why each layout was added:
-- `reason` 'manual' (PUT /admin/workspaces/{id}/buckets; NULL: a row of before, or the first row,
-- the SHARD_BUCKETS count) or 'busy' / 'quiet' (the watch), and the busiest share of a shard's
-- capacity the watch saw when it decided (`busy`, 0.83 = 83%). Written with the layout: no row more.
ALTER TABLE bucket_layouts ADD COLUMN reason TEXT CHECK (reason IN ('manual', 'busy', 'quiet'));
ALTER TABLE bucket_layouts ADD COLUMN busy REAL;

-- In the watch: each shard's last reported busy share and its minute, and when it last reported a
-- share of at least half the trigger (`warm_at`: the workspace is quiet once every shard's is older
-- than the cool-down). Set by the shard's report of its metrics minute, which writes the row anyway.
ALTER TABLE shard_registry ADD COLUMN busy_share REAL;
ALTER TABLE shard_registry ADD COLUMN busy_minute INTEGER;
ALTER TABLE shard_registry ADD COLUMN warm_at INTEGER;

-- In the watch: when to look at a workspace again — after a busy report (not before `hold_until`,
-- the end of the cool-down of its latest layout, as the watch last read them), and while it is
-- spread, when a fall could be due. One row per workspace watched, written only when due_at moves.
CREATE TABLE spread_checks (
  workspace  TEXT PRIMARY KEY,
  due_at     INTEGER NOT NULL,
  hold_until INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX spread_checks_due ON spread_checks (due_at);
