-- What each bucket layout routes a delivery by (docs/guides/sharding.md): 'message' — its message
-- fact, else its dedupe key — for every layout set before this column existed (the shards they
-- filled were filled so); 'conversation' — its thread, when it has one — for layouts set since.
ALTER TABLE bucket_layouts ADD COLUMN routing TEXT NOT NULL DEFAULT 'message' CHECK (routing IN ('message', 'conversation'));
