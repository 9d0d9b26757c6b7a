/**
 * How fast Slack lets an app call a Web API method, as Slack publishes it
 * (https://docs.slack.dev/apis/web-api/rate-limits): per app, per workspace, per method, in
 * tiers of calls per minute — and `chat.postMessage` per channel, about one message a second
 * with short bursts. The coordinator paces its own calls by these figures instead of learning
 * them from 429s. A method missing here is not paced; a 429 still slows it (Retry-After).
 */

/** One rate key's pace: `perSecond` on average, at most `burst` at once. */
export interface Pace {
  perSecond: number;
  burst: number;
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
};

/**
 * Streams' methods, per workspace: `chat.startStream` / `chat.stopStream` Tier 2, `chat.appendStream`
 * Tier 4 — spread evenly (no burst), since a burst at a minute's start leaves its end over Slack's
 * per-minute count; a stream waiting for its turn sends its gathered text in a bigger flush.
 */
export const STREAM_PACES: Readonly<Record<string, Pace>> = {
  "chat.startStream": { perSecond: TIER_PER_MINUTE[2] / 60, burst: 1 },
  "chat.stopStream": { perSecond: TIER_PER_MINUTE[2] / 60, burst: 1 },
  "chat.appendStream": { perSecond: TIER_PER_MINUTE[4] / 60, burst: 1 },
  // A streamed answer posted when starts are exhausted is updated in place, flush after flush.
  "chat.update": { perSecond: TIER_PER_MINUTE[3] / 60, burst: 1 },
};

/** A call's rate key within its workspace: the method, and for `chat.postMessage` its channel. */
export function callRateKey(method: string, body: Record<string, unknown>): string {
  return method === "chat.postMessage" && typeof body.channel === "string" ? `${method}:${body.channel}` : method;
}

/** A call's rate key and pace, or null when it is not paced. */
export function paceOf(method: string, body: Record<string, unknown>): { rateKey: string; pace: Pace } | null {
  // chat.postMessage without a channel: Slack refuses the call anyway; it is not paced.
  if (method === "chat.postMessage")
    return typeof body.channel === "string" ? { rateKey: callRateKey(method, body), pace: POST_MESSAGE_PER_CHANNEL } : null;
  const stream = STREAM_PACES[method];
  if (stream) return { rateKey: method, pace: stream };
  const n = METHOD_TIERS[method];
  return n === undefined ? null : { rateKey: method, pace: tier(n) };
}
