import type { APP_DISTRIBUTIONS } from "./historySettings";
import { inOAuthMode } from "./modes";
import type { Vars } from "./read";
import { setting } from "./table";

/** How the app reaches its workspaces (SLACK_APP_DISTRIBUTION). */
export type AppDistribution = (typeof APP_DISTRIBUTIONS)[number];

/** How an uncertain post is looked for: how fast, how many messages a page, and how long it may wait. */
export interface HistoryReads {
  distribution: AppDistribution;
  /** SLACK_HISTORY_PER_MINUTE: the history reads a workspace may make a minute (when pacing). */
  perMinute: number;
  /** SLACK_HISTORY_PAGE_SIZE: the messages a read asks for (`limit`). */
  pageSize: number;
  /** SLACK_HISTORY_MAX_WAIT_MS: a lookup not made by then is given up, and the post is sent again. */
  maxWaitMs: number;
}

/**
 * What Slack lets each kind of app read with conversations.history / conversations.replies
 * (https://docs.slack.dev/apis/web-api/rate-limits): Tier 3 (50 a minute) and pages of up to 200
 * messages for a customer's own internal apps and for Marketplace apps; 1 a minute and 15
 * messages a page for commercially distributed apps outside the Marketplace (new installs since
 * 2025-05-29, existing ones since 2026-03-03).
 */
export const HISTORY_LIMITS: Readonly<Record<AppDistribution, { perMinute: number; pageSize: number }>> = {
  internal: { perMinute: 50, pageSize: 200 },
  marketplace: { perMinute: 50, pageSize: 200 },
  distributed: { perMinute: 1, pageSize: 15 },
};

/**
 * The app's kind as SLACK_APP_DISTRIBUTION says, else as its mode suggests: one bot token and no
 * OAuth is almost always a customer's own app (`internal`); OAuth mode, or a token from an
 * `authorize` of the app's own, may be distributed — the strictest limits unless told.
 */
export function appDistribution(vars: Vars): AppDistribution {
  const told = setting(vars, "SLACK_APP_DISTRIBUTION");
  if (told !== undefined) return told;
  return setting(vars, "SLACK_BOT_TOKEN") !== undefined && !inOAuthMode(vars) ? "internal" : "distributed";
}

/** The lookups' pace and page by the app's kind (SLACK_HISTORY_PER_MINUTE and _PAGE_SIZE, when set, win), and their bound. */
export function historyReads(vars: Vars): HistoryReads {
  const distribution = appDistribution(vars);
  const limits = HISTORY_LIMITS[distribution];
  return {
    distribution,
    perMinute: setting(vars, "SLACK_HISTORY_PER_MINUTE") ?? limits.perMinute,
    pageSize: setting(vars, "SLACK_HISTORY_PAGE_SIZE") ?? limits.pageSize,
    maxWaitMs: setting(vars, "SLACK_HISTORY_MAX_WAIT_MS"),
  };
}
