-- Persistent metrics (README "Operations console"): one row per shard per minute with traffic,
-- written by the shard's in-memory buffer at most once a minute and kept 7 days. Every shard has
-- the table; `shard_registry` is written only in the watch (shard "watch"): one row per shard
-- that exists, refreshed at most once a minute, so the console lists shards without knowing names.

CREATE TABLE metric_minutes (
  minute            INTEGER PRIMARY KEY,
  -- {"accepted":n,"duplicates":n,"ignored":n,"delivered":n,"retried":n,"parked":n,"fenceRejections":n,"rowsWritten":n}
  counts            TEXT    NOT NULL,
  -- Histograms: counts per bucket of src/metrics/histogram.ts's bounds (ms).
  ack_ms            TEXT    NOT NULL,
  delivery_ms       TEXT    NOT NULL,
  -- The outbox when the minute was written: pending rows, and when the oldest of them was recorded.
  depth             INTEGER NOT NULL,
  oldest_pending_at INTEGER
);

CREATE TABLE shard_registry (
  shard       TEXT PRIMARY KEY,
  workspace   TEXT    NOT NULL,
  bucket      TEXT    NOT NULL,
  first_seen  INTEGER NOT NULL,
  last_active INTEGER NOT NULL
);
