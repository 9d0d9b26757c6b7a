import { type Delivery, sign } from "../../src/testing/deliveries";

/**
 * Slack's redelivery of an Events API request that got no 2xx within 3 seconds: a retry almost
 * at once (so often concurrent with the first delivery, still running on our side), then about
 * 1 minute later, then about 5 minutes later, each with X-Slack-Retry-Num and -Reason. The
 * schedule divides by `compression` so a test can replay it quickly. Web APIs only: it runs in
 * Node and workerd alike.
 */

/** Slack gives up on an attempt after this long (not compressed: it is what the server must beat). */
export const SLACK_TIMEOUT_MS = 3_000;

/** Delays before retries 1, 2 and 3, counted from the failure of the attempt before. */
export function slackRetryDelaysMs(compression = 1): number[] {
  return [0, 60_000, 300_000].map((delay) => delay / compression);
}

export type RetryReason = "http_timeout" | "connection_failed" | "http_error";

export interface Attempt {
  retryNum: number;
  /** When sent and settled, in `now()`'s clock. */
  sentAt: number;
  settledAt: number;
  status?: number;
  /** Why Slack would count it as failed; absent when answered 2xx. */
  failure?: RetryReason;
}

export interface SlackDeliveryResult {
  /** Some attempt was answered 2xx within Slack's timeout. */
  acked: boolean;
  /** The server asked Slack not to retry (`x-slack-no-retry: 1`). */
  refused: boolean;
  attempts: Attempt[];
}

export interface SlackDeliveryOptions {
  body: string;
  contentType: string;
  secret: string;
  /** Sends one signed attempt; rejects on connection errors, and must honour `signal`. */
  send(delivery: Delivery, signal: AbortSignal): Promise<Response>;
  compression?: number;
  /** Spread of each retry delay, ± this fraction (Slack's timing is not exact); 0 by default. */
  jitter?: number;
  random?: () => number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

async function attemptOnce(options: SlackDeliveryOptions, retryNum: number, reason: RetryReason | undefined, now: () => number) {
  const delivery = await sign(options.body, options.contentType, {
    secret: options.secret,
    ...(retryNum > 0 ? { retryNum, retryReason: reason } : {}),
  });
  const sentAt = now();
  const signal = AbortSignal.timeout(SLACK_TIMEOUT_MS);
  try {
    const response = await options.send(delivery, signal);
    await response.arrayBuffer();
    const ok = response.status >= 200 && response.status < 300;
    const attempt: Attempt = {
      retryNum,
      sentAt,
      settledAt: now(),
      status: response.status,
      ...(ok ? {} : { failure: "http_error" as const }),
    };
    return { attempt, noRetry: response.headers.get("x-slack-no-retry") === "1" };
  } catch {
    const failure: RetryReason = signal.aborted ? "http_timeout" : "connection_failed";
    return { attempt: { retryNum, sentAt, settledAt: now(), failure } satisfies Attempt, noRetry: false };
  }
}

/** Delivers one request the way Slack does, retrying on its schedule until a 2xx or the retries run out. */
export async function deliverLikeSlack(options: SlackDeliveryOptions): Promise<SlackDeliveryResult> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const delays = slackRetryDelaysMs(options.compression);
  const attempts: Attempt[] = [];
  let reason: RetryReason | undefined;
  const spread = options.jitter ?? 0;
  const random = options.random ?? Math.random;
  for (let retryNum = 0; retryNum <= delays.length; retryNum++) {
    if (retryNum > 0) await sleep(delays[retryNum - 1]! * (1 + spread * (2 * random() - 1)));
    const { attempt, noRetry } = await attemptOnce(options, retryNum, reason, now);
    attempts.push(attempt);
    if (!attempt.failure) return { acked: true, refused: false, attempts };
    if (noRetry) return { acked: false, refused: true, attempts };
    reason = attempt.failure;
  }
  return { acked: false, refused: false, attempts };
}
