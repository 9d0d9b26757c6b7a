-- An effect's story while its row lives (issue 42; docs/design.md "An event's story"): the last
-- attempts that settled on the row — start, end, outcome, error and each Slack call — as a JSON
-- array, appended by the retry's, the park's and the stop's UPDATE, which write the row anyway:
-- no row more per event. No index reads it; a row's story goes with the row.
ALTER TABLE outbox ADD COLUMN story TEXT;
