-- When a row's park follow-ups (what the app plans once a run is finally parked: app.error,
-- a custom step's completeError) were recorded, in the parking's own transaction. Set once,
-- never cleared: a replayed row that parks again plans none a second time. A follow-up row is
-- written with it set, so a follow-up that parks has no follow-ups of its own.
ALTER TABLE outbox ADD COLUMN followed_up_at INTEGER;
