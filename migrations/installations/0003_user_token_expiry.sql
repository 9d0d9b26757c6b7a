-- The installing user's token rotates like the bot's (token rotation): when it expires, so the
-- store refreshes it before a run gets it as `context.userToken`. NULL: it does not expire.
ALTER TABLE installation ADD COLUMN user_expires_at INTEGER;
