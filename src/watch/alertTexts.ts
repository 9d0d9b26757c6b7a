import type { DestinationRun } from "../rpc/outcomes";
import type { HealthWindow } from "../rpc/watch";

/**
 * The words of every alert (docs/guides/operations.md "Alerts"): what failed, how often, the last error and the
 * newest key to look up — never a token, a URL's secret part or a payload.
 */

/** What each status the edge acks Slack with means, and what to check first. */
const CAUSES: Record<string, { name: string; hint: string }> = {
  "401": { name: "invalid signature", hint: "was SLACK_SIGNING_SECRET changed?" },
  "413": { name: "body too large", hint: "requests above the 1 MiB cap do not come from Slack" },
  "400": { name: "unparseable request", hint: "see the Worker's log for the field that is missing" },
  "410": { name: "workspace not installed", hint: "workspaces that uninstalled are still sending events" },
  "503": { name: "not recorded within the ack budget", hint: "shards are slow or failing; see the Worker's log" },
  "503:overloaded": {
    name: "refused by overloaded shards (nothing recorded; Slack retries)",
    hint: "shards had more queued than they serve within OVERLOAD_WAIT_MS: spread the workspace over more buckets (PUT /admin/workspaces/{id}/buckets, or SPREAD_AUTOMATIC) or make its handlers cheaper",
  },
  "500": { name: "internal or configuration error", hint: "see the Worker's log (a setting is named there)" },
};

const percent = (part: number, whole: number) => Math.round((part / whole) * 100);

/**
 * Slack's mrkdwn reads `<…>` as a mention or a link and `&` as an entity's start, so every field
 * an alert quotes (errors, labels, ids, keys, workspaces) is escaped: `<!channel>` in a handler's
 * error arrives as text, not as a page to the whole channel.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Errors and reasons are ours, but may quote an answer or a handler's message: kept short. */
const QUOTE_MAX = 200;
/** Escaped, then cut; a cut inside an entity steps back before its `&` (every `&` now starts one). */
function quote(text: string | undefined): string {
  if (text === undefined) return "unknown";
  const escaped = escapeMrkdwn(text);
  return escaped.length > QUOTE_MAX ? `${escaped.slice(0, QUOTE_MAX).replace(/&[a-z]{0,3}$/, "")}…` : escaped;
}

export function guardAlert(window: HealthWindow): string {
  const [cause, n] = Object.entries(window.by_cause).sort(([, a], [, b]) => b - a)[0] ?? ["?", 0];
  const { name, hint } = CAUSES[cause] ?? { name: "error", hint: "see the Worker's log" };
  const minutes = `${window.span_minutes} minute${window.span_minutes === 1 ? "" : "s"}`;
  return (
    `:rotating_light: Slack may soon disable this app's events. ${escapeMrkdwn(cause)} ${name}: ` +
    `${percent(n, window.answered)} % of ${window.answered} requests in the last ${minutes} — ${hint} ` +
    `(${percent(window.failed, window.answered)} % failed in all; Slack turns event subscriptions off ` +
    "when more than 95 % of deliveries fail within 60 minutes. The window: GET /admin/health.)"
  );
}

export function guardRecovered(window: HealthWindow): string {
  return `:white_check_mark: Answers to Slack are healthy again: ${percent(window.failed, window.answered)} % of ${window.answered} failed in the last ${window.span_minutes} minutes.`;
}

export function streakAlert(label: string, failures: number, run: Pick<DestinationRun, "error" | "key">, last: boolean): string {
  const attempts = failures === 1 ? "a failed attempt" : `${failures} consecutive failed attempts`;
  const more = last ? " No further alerts until it recovers." : "";
  return `:warning: ${escapeMrkdwn(label)}: ${attempts}. Last error: ${quote(run.error)}. Newest key: ${quote(run.key)}.${more}`;
}

export function streakRecovered(label: string, failures: number): string {
  return `:white_check_mark: ${escapeMrkdwn(label)} recovered after ${failures} consecutive failed attempt${failures === 1 ? "" : "s"}.`;
}

/** A shard's path in the operations API ("{workspace}/{bucket}", each part percent-encoded). */
function shardPath(shard: string): string {
  const [workspace, bucket] = [shard.slice(0, shard.lastIndexOf("/")), shard.slice(shard.lastIndexOf("/") + 1)];
  return `/admin/shards/${encodeURIComponent(workspace)}/${encodeURIComponent(bucket)}`;
}

export function parkedAlert(shard: string, count: number, reason: string, key: string): string {
  const what = count === 1 ? "1 effect was" : `${count} effects were`;
  const path = shardPath(shard);
  return (
    `:parking: ${what} parked on shard ${escapeMrkdwn(shard)} (they wait for an operator). Last: ${quote(reason)} (${quote(key)}). ` +
    `List them: GET ${path}/parked; replay: POST ${path}/replay.`
  );
}

/** Slack's `app_rate_limited` notice (`minute`: Slack's `minute_rate_limited`, seconds since the epoch). */
export function appRateLimitedAlert(workspace: string, minute: number): string {
  const when = Number.isFinite(minute) ? new Date(minute * 1000).toISOString().slice(0, 16) : "an unknown minute";
  return (
    `Slack rate-limited the app in workspace ${escapeMrkdwn(workspace)}: its events of the minute from ${when} UTC were not ` +
    "sent and will not be (app_rate_limited: more than 30,000 events in an hour). Look for a loop (the app " +
    "reacting to its own messages) or event subscriptions the app does not need."
  );
}

/** Bytes as an alert says them: decimal units, as Cloudflare states its 10 GB limit. */
function bytesText(bytes: number): string {
  const [unit, name] = (
    [
      [1e9, "GB"],
      [1e6, "MB"],
      [1e3, "kB"],
    ] as const
  ).find(([size]) => bytes >= size) ?? [1, "B"];
  return `${Number((bytes / unit).toFixed(bytes >= 10 * unit ? 0 : 1))} ${name}`;
}

/** A shard's SQLite at or past STORAGE_ALERT_BYTES (Cloudflare allows 10 GB per Durable Object). */
export function storageAlert(shard: string, bytes: number, limit: number): string {
  return (
    `:floppy_disk: Shard ${escapeMrkdwn(shard)} stores ${bytesText(bytes)} (STORAGE_ALERT_BYTES: ${bytesText(limit)}); ` +
    "Cloudflare allows a Durable Object 10 GB, and past it the shard can record nothing. Its receipts and parked " +
    `effects: GET ${shardPath(shard)}. Shorten RECEIPT_RETENTION_HOURS, discard parked effects nobody will replay, or spread ` +
    "the workspace over more buckets (PUT /admin/workspaces/{id}/buckets). Repeated at most once a day."
  );
}
