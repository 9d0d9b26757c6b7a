-- Storage per shard (docs/guides/operations.md "Metrics", "Alerts"): Cloudflare allows 10 GB per
-- Durable Object. `metric_minutes.database_size` is the shard's SQLite size in bytes
-- (ctx.storage.sql.databaseSize, a property: nothing is scanned) when the minute was written. In
-- the watch, `shard_registry.database_size` is the size each shard last reported, and
-- `storage_alerted_at` when a shard past STORAGE_ALERT_BYTES was last alerted (at most once a day).
-- NULL on rows of before this migration.
ALTER TABLE metric_minutes ADD COLUMN database_size INTEGER;
ALTER TABLE shard_registry ADD COLUMN database_size INTEGER;
ALTER TABLE shard_registry ADD COLUMN storage_alerted_at INTEGER;
