-- Who may answer a durable wait (`waitForAction`'s `from`, issue 41): a JSON array of Slack user ids
-- — the asker alone by default — or NULL for anyone in the channel. Checked at the click's ingest,
-- in the transaction that answers the wait. Waits opened before this migration keep NULL: anyone,
-- the rule they were opened under. ADD COLUMN only: a CHECK would need a rebuild of the table.
ALTER TABLE waits ADD COLUMN answerers TEXT;
