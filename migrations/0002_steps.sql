-- Checkpoints of durable handlers: the result of each completed step() of a `run`
-- effect, as a JSON object { "step name": result } on the run's own outbox row, so
-- a retried run returns it instead of repeating the step. Kept on the row — not in
-- a table of their own — a checkpoint costs one row written and disappears with the
-- row when the run completes or is discarded, at no further cost; a parked run keeps
-- its checkpoints, so a replay resumes after its completed steps.
ALTER TABLE outbox ADD COLUMN steps TEXT NOT NULL DEFAULT '{}';
