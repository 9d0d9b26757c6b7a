import { aesKey, flag, list, text, url } from "./read";

/**
 * The settings of OAuth mode (many workspaces), rows of the settings table (table.ts): the app's
 * client, what an install asks for and where it lands, and the keys of tokens at rest.
 */

const OAUTH_CLIENT =
  "both set: OAuth (multi-workspace) mode, tokens per installation ([Distribute your app](../guides/oauth.md)); one without the other leaves OAuth mode off, logged once with the fix (single-workspace mode keeps working)";

export const OAUTH_SETTINGS = {
  SLACK_CLIENT_ID: { part: "oauth", read: text(), doc: OAUTH_CLIENT },
  SLACK_CLIENT_SECRET: { part: "oauth", read: text(), doc: OAUTH_CLIENT },
  SLACK_SCOPES: {
    part: "oauth",
    read: list("— (empty)"),
    doc: "bot scopes asked for at install, comma-separated (`app_mentions:read,chat:write`)",
  },
  SLACK_USER_SCOPES: {
    part: "oauth",
    read: list(),
    doc: "user scopes asked for at install, comma-separated; sent as `user_scope` when set",
  },
  SLACK_REDIRECT_URI: {
    part: "oauth",
    read: url(),
    doc: "sent as `redirect_uri` (must match one of the app's Redirect URLs); when unset Slack uses the app's only one",
  },
  SLACK_INSTALL_SUCCESS_URL: {
    part: "oauth",
    read: url(),
    doc: "after a successful install, `302` here instead of the built-in success page",
  },
  SLACK_OAUTH_ALLOW_NO_STATE: {
    part: "oauth",
    read: flag(false),
    doc: "`true` accepts a redirect without `state`: org-wide installs started from Slack's admin pages arrive so (as in Bolt). Leaves such redirects without CSRF protection; enable only if you need it",
  },
  SLACK_OAUTH_AUTHORIZE_URL: {
    part: "oauth",
    read: url("https://slack.com/oauth/v2/authorize"),
    doc: "Slack's authorize page; tests and local runs point it at the fake",
  },
  TOKEN_ENCRYPTION_KEY: {
    part: "oauth",
    read: aesKey("— (required in OAuth mode)"),
    doc: "AES-256-GCM key for tokens at rest (installations' tokens; custom steps' tokens in either mode): 32 random bytes, base64 (`openssl rand -base64 32`). `npm start` writes a development one into `.dev.vars`",
  },
  TOKEN_ENCRYPTION_KEY_PREVIOUS: {
    part: "oauth",
    read: aesKey(),
    doc: "the key before a rotation: still decrypts, while everything written from now on uses the current key",
  },
} as const;
