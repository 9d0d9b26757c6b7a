/**
 * How fast Slack lets an app call a Web API method, as Slack publishes it
 * (https://docs.slack.dev/apis/web-api/rate-limits): per app, per workspace, per method, in
 * tiers of calls per minute — and `chat.postMessage` per channel, about one message a second
 * with short bursts. The coordinator paces its own calls by these figures instead of learning
 * them from 429s. A method missing here is not paced; a 429 still slows it (Retry-After).
 */

/**
 * One rate key's pace: `perSecond` on average, at most `burst` at once — and, with `perMinute`,
 * never more than that in any minute, so a burst is taken out of the minute's count, not added to it.
 */
export interface Pace {
  perSecond: number;
  burst: number;
  perMinute?: number;
}

/** Slack's tiers: at least this many calls per minute. */
const TIER_PER_MINUTE = { 1: 1, 2: 20, 3: 50, 4: 100 } as const;
type Tier = keyof typeof TIER_PER_MINUTE;

/** A tier's pace: its floor per minute, with a fifth of a minute's calls as the burst Slack tolerates. */
function tier(n: Tier): Pace {
  const perMinute = TIER_PER_MINUTE[n];
  return { perSecond: perMinute / 60, burst: Math.max(1, Math.floor(perMinute / 5)) };
}

/**
 * `chat.postMessage` per channel: one a second, bursts of at most 3 — paced a little under 1/s,
 * because calls' network latency varies and Slack may see two paced calls closer than they left.
 */
export const POST_MESSAGE_PER_CHANNEL: Pace = { perSecond: 0.95, burst: 3 };

/** The methods the coordinator, its app API and Bolt-style handlers commonly call, by their published tier. */
export const METHOD_TIERS: Readonly<Record<string, Tier>> = {
  "chat.update": 3,
  "chat.delete": 3,
  "chat.postEphemeral": 4,
  "chat.scheduleMessage": 3,
  "chat.getPermalink": 4,
  "reactions.add": 3,
  "reactions.remove": 2,
  "pins.add": 2,
  "pins.remove": 2,
  "views.open": 4,
  "views.push": 4,
  "views.update": 4,
  "views.publish": 4,
  "users.info": 4,
  "users.lookupByEmail": 3,
  "conversations.info": 3,
  "conversations.members": 4,
  "conversations.history": 3,
  "conversations.replies": 3,
  "conversations.join": 3,
  "files.getUploadURLExternal": 4,
  "files.completeUploadExternal": 4,
  "auth.test": 4,
  // Real-time Search: assistant.search.info is Tier 2; assistant.search.context's page says only
  // "Special rate limits apply" (docs.slack.dev/reference/methods/assistant.search.context), no
  // figure: paced at its companion's Tier 2 (20 a minute per workspace) until Slack publishes one.
  "assistant.search.context": 2,
  "assistant.search.info": 2,
};

/** Stream starts (and stops) that may go at once per workspace, unless SLACK_STREAM_BURST says otherwise. */
export const STREAM_BURST = 5;

/**
 * Streams' methods, per workspace: `chat.appendStream` Tier 4 and `chat.update` (a streamed answer
 * posted when starts are exhausted, updated in place flush after flush) Tier 3, spread evenly —
 * a stream waiting for its turn sends its gathered text in a bigger flush.
 */
const STREAM_PACES: Readonly<Record<string, Pace>> = {
  "chat.appendStream": { perSecond: TIER_PER_MINUTE[4] / 60, burst: 1 },
  "chat.update": { perSecond: TIER_PER_MINUTE[3] / 60, burst: 1 },
};

/**
 * `chat.startStream` / `chat.stopStream`, Tier 2 per workspace, with Slack's "occasional bursts":
 * up to `burst` at once (answers arriving together all stream), then one every 3 s — and never
 * more than Tier 2's 20 in any minute, so a burst at a minute's start cannot leave its end over.
 */
export function streamEndsPace(burst: number): Pace {
  const perMinute = TIER_PER_MINUTE[2];
  return { perSecond: perMinute / 60, burst: Math.min(Math.max(1, burst), perMinute), perMinute };
}

/** A call's rate key within its workspace: the method, and for `chat.postMessage` its channel. */
export function callRateKey(method: string, body: Record<string, unknown>): string {
  return method === "chat.postMessage" && typeof body.channel === "string" ? `${method}:${body.channel}` : method;
}

/**
 * `conversations.history` / `conversations.replies`: Tier 3 (50 a minute) for apps in the Slack
 * Marketplace and a customer's own internal apps, but 1 a minute (and at most 15 messages a page)
 * for commercially distributed apps outside the Marketplace (new installs since 2025-05-29,
 * existing ones since 2026-03-03). The delivery settings say which applies (SLACK_APP_DISTRIBUTION,
 * SLACK_HISTORY_PER_MINUTE: settings/historyReads.ts).
 */
export const HISTORY_READS: ReadonlySet<string> = new Set(["conversations.history", "conversations.replies"]);

/** The history reads' pace at `perMinute`: never more than that in any minute, a fifth of it at once. */
export function historyPace(perMinute: number): Pace {
  return { perSecond: perMinute / 60, burst: Math.max(1, Math.floor(perMinute / 5)), perMinute };
}

/**
 * A call's rate key and pace (stream starts and stops bursting by `streamBurst`; the history reads
 * at `historyPerMinute`, Tier 3 when not told), or null when it is not paced.
 */
export function paceOf(
  method: string,
  body: Record<string, unknown>,
  streamBurst = STREAM_BURST,
  historyPerMinute?: number,
): { rateKey: string; pace: Pace } | null {
  // chat.postMessage without a channel: Slack refuses the call anyway; it is not paced.
  if (method === "chat.postMessage")
    return typeof body.channel === "string" ? { rateKey: callRateKey(method, body), pace: POST_MESSAGE_PER_CHANNEL } : null;
  if (method === "chat.startStream" || method === "chat.stopStream")
    return { rateKey: method, pace: streamEndsPace(streamBurst) };
  if (historyPerMinute !== undefined && HISTORY_READS.has(method))
    return { rateKey: method, pace: historyPace(historyPerMinute) };
  const stream = STREAM_PACES[method];
  if (stream) return { rateKey: method, pace: stream };
  const n = METHOD_TIERS[method];
  return n === undefined ? null : { rateKey: method, pace: tier(n) };
}
