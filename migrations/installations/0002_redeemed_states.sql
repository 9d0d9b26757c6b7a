-- OAuth states are signed (src/installations/signedState.ts): an install click stores nothing.
-- Single use is a row per *redeemed* state, kept until that state expires and pruned a few at a
-- time through the index on expiry.
CREATE TABLE redeemed_state (
  nonce      TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL       -- ms since the epoch: the state's own expiry
) WITHOUT ROWID;
CREATE INDEX redeemed_state_by_expiry ON redeemed_state (expires_at);

-- States issued before signed states still redeem once here until they expire; nothing adds to
-- this table any more, and what is left is pruned the same bounded way.
CREATE INDEX oauth_state_by_expiry ON oauth_state (expires_at);
