import { oneOf, positive, positiveOrUnset } from "./read";

/**
 * The settings of the lookups of uncertain posts (`conversations.history` / `conversations.replies`:
 * docs/reference/delivery.md "Uncertain posts"), rows of the settings table (table.ts): what kind
 * of app this is — which decides what Slack lets it read (historyReads.ts) — and how long a post
 * waits for its lookup.
 */

/** How the app reaches its workspaces, as Slack's limits on reading history tell apps apart. */
export const APP_DISTRIBUTIONS = ["internal", "marketplace", "distributed"] as const;

export const HISTORY_SETTINGS = {
  SLACK_APP_DISTRIBUTION: {
    part: "delivery",
    read: oneOf(APP_DISTRIBUTIONS, "`internal` with `SLACK_BOT_TOKEN` and no OAuth, else `distributed`"),
    doc: "what kind of app this is, for Slack's limits on `conversations.history` / `conversations.replies` — the reads that look for an uncertain post before it is posted again ([Uncertain posts](delivery.md#uncertain-posts)) and for a lost stream start: `internal` (a customer's own app) and `marketplace` (listed in the Slack Marketplace) get Tier 3, 50 reads a minute of up to 200 messages; `distributed` (commercially distributed outside the Marketplace) gets 1 read a minute of at most 15 messages. Decides the defaults of `SLACK_HISTORY_PER_MINUTE` and `SLACK_HISTORY_PAGE_SIZE`",
  },
  SLACK_HISTORY_PER_MINUTE: {
    part: "delivery",
    read: positiveOrUnset("by `SLACK_APP_DISTRIBUTION`: `50`, or `1` when `distributed`"),
    doc: "with `SLACK_PACING`, how many of those reads a workspace may make a minute; when set, it wins over `SLACK_APP_DISTRIBUTION`",
  },
  SLACK_HISTORY_PAGE_SIZE: {
    part: "delivery",
    read: positiveOrUnset("by `SLACK_APP_DISTRIBUTION`: `200`, or `15` when `distributed`"),
    doc: "messages such a lookup asks for a page (`limit`); when set, it wins over `SLACK_APP_DISTRIBUTION`. A lookup reads up to 3 pages, a page after the first only when its turn is now",
  },
  SLACK_HISTORY_MAX_WAIT_MS: {
    part: "delivery",
    read: positive(30_000),
    doc: "how long an uncertain post waits for its lookup's turn — in the pace (`SLACK_HISTORY_PER_MINUTE`), or a `429`'s `Retry-After` — counted from the row's first try to look: a lookup whose turn comes later is given up and the post is sent again at once (at least once: a possible duplicate, logged as a warning with the key and shard). Reads that fail are retried like any call",
  },
} as const;
