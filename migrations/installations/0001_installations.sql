-- The installation store (OAuth mode). One Durable Object per installation holds its single row;
-- one more object, the directory, holds the OAuth states in flight and a summary per installation
-- for the operations list. Tokens are stored sealed (AES-GCM, src/auth/tokenCipher.ts), never in
-- plaintext; `summary` is JSON with no token in it.
CREATE TABLE installation (
  id                 TEXT PRIMARY KEY,  -- the team id, or the enterprise id of an org-wide install
  summary            TEXT NOT NULL,     -- InstallationSummary as JSON (src/installations/api.ts)
  bot_token          TEXT,              -- sealed; NULL once uninstalled or revoked
  bot_refresh_token  TEXT,              -- sealed; with token rotation only
  bot_expires_at     INTEGER,           -- ms since the epoch; with token rotation only
  user_token         TEXT,              -- sealed; the installing user's token, when user scopes were asked
  user_refresh_token TEXT
) WITHOUT ROWID;

-- Single-use OAuth states, each consumed by its first use and dead after ten minutes.
CREATE TABLE oauth_state (
  state      TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;

-- The directory's copy of each installation's summary, for GET /admin/installations.
CREATE TABLE directory (
  id      TEXT PRIMARY KEY,
  summary TEXT NOT NULL
) WITHOUT ROWID;
