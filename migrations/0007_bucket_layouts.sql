-- A workspace's bucket layouts (README "Sharding"): how many shards its deliveries are spread
-- over, from when. Kept in the workspace's bucket 0 — a shard every layout has — and written
-- only by PUT /admin/workspaces/{id}/buckets; the first row is the count in force before the
-- first change (SHARD_BUCKETS then), effective from 0. Every shard gets the table; only a
-- bucket 0 writes it.
CREATE TABLE bucket_layouts (
  effective_at INTEGER PRIMARY KEY, -- ms since the epoch
  buckets      INTEGER NOT NULL CHECK (buckets >= 1),
  mixed        INTEGER NOT NULL DEFAULT 1 -- 1: keys spread by fmix32(fnv1a32(key)); 0: FNV-1a alone (the first row)
);
