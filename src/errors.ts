/**
 * Every error the coordinator throws on purpose, in one vocabulary. Each class says what it
 * means as a property, and nobody matches on `error.name`:
 * - at the edge, a `Rejection` carries the HTTP status Slack sees and whether Slack may retry;
 * - in delivery, a `DeliveryError` carries what happens to the outbox row: retried with backoff
 *   (`retry`), parked for an operator (`park`), or left alone because another attempt owns it
 *   (`lease_lost`).
 */

// ── The edge: answers to Slack ────────────────────────────────────────────────────────────────

/** A request the edge refuses. `noRetry` adds `x-slack-no-retry: 1`: only for what a retry cannot change. */
export class Rejection extends Error {
  override name = "Rejection";
  constructor(
    readonly status: number,
    message: string,
    readonly noRetry = false,
  ) {
    super(message);
  }

  toResponse(): Response {
    const headers = new Headers({ "content-type": "text/plain;charset=utf-8" });
    if (this.noRetry) headers.set("x-slack-no-retry", "1");
    return new Response(this.message, { status: this.status, headers });
  }
}

/** Missing, stale or wrong signature: 401, nothing stored. */
export class InvalidSignature extends Rejection {
  override name = "InvalidSignature";
  constructor(message: string) {
    super(401, message);
  }
}

/** Larger than Slack ever sends: 413, nothing stored. */
export class BodyTooLarge extends Rejection {
  override name = "BodyTooLarge";
  constructor(message: string) {
    super(413, message);
  }
}

/** Signed, but never understandable or recordable by us: 400 and no retry. */
export class MalformedPayload extends Rejection {
  override name = "MalformedPayload";
  constructor(message: string) {
    super(400, message, true);
  }
}

/** OAuth mode: the workspace has not installed the app (or uninstalled it): 410 and no retry. */
export class WorkspaceNotInstalled extends Rejection {
  override name = "WorkspaceNotInstalled";
  constructor(message = "workspace has not installed this app") {
    super(410, message, true);
  }
}

/** Not confirmed durable within the ack budget: 503 without no-retry, so Slack's retry can save it. */
export class NotRecorded extends Rejection {
  override name = "NotRecorded";
  constructor(message = "event not recorded; retry") {
    super(503, message);
  }
}

/**
 * A wrangler var or secret that cannot be used, naming the setting. Not a Rejection: Slack sees
 * a plain 500 (or 503 from a shard that cannot start) and retries, and the log line names it.
 */
export class InvalidSetting extends Error {
  override name = "InvalidSetting";
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting} ${message}`);
  }
}

/** The shard did not confirm the record within ACK_BUDGET_MS; recordInbound answers it as NotRecorded. */
export class BudgetExceeded extends Error {
  override name = "BudgetExceeded";
}

/** An RPC of one role called on a Durable Object playing another (a watch method on a workspace shard …). */
export class WrongRole extends Error {
  override name = "WrongRole";
  constructor(object: string, role: string, wanted: string) {
    super(`"${object}" is ${role}, not ${wanted}`);
  }
}

/** A sealed token no configured key can open (unknown key id, or tampered with). */
export class TokenUnreadable extends Error {
  override name = "TokenUnreadable";
}

// ── Delivery: what happens to an outbox row ──────────────────────────────────────────────────

/** What one attempt means for its outbox row. */
export type Verdict =
  | { outcome: "delivered" }
  /** `maxAttempts` lowers the engine's MAX_ATTEMPTS for this failure (e.g. a bug in a handler). */
  | {
      outcome: "retry";
      reason: string;
      retryAfterMs?: number;
      maxAttempts?: number;
      retryUntil?: number;
      retryAt?: number;
    }
  | { outcome: "park"; reason: string }
  /** The attempt found its lease taken by another claimer (a step write was fenced out). */
  | { outcome: "lease_lost" }
  /** Not yet: the row waits until `until` without an attempt counted (pacing). */
  | { outcome: "postpone"; until: number };

export type Disposition = "retry" | "park" | "lease_lost" | "postpone";

/** An attempt that failed in a way we understand; `disposition` is what the outbox does next. */
export abstract class DeliveryError extends Error {
  abstract readonly disposition: Disposition;
  /** Slack's Retry-After, when it sent one. */
  readonly retryAfterMs?: number;
  /** Attempts after which this failure parks the row, when fewer than MAX_ATTEMPTS. */
  readonly maxAttempts?: number;
  /**
   * A horizon in time instead of in attempts: retried (past MAX_ATTEMPTS) while the next attempt
   * would come before this time (ms since the epoch), then parked.
   */
  readonly retryUntil?: number;
  /** The next attempt at exactly this time (ms since the epoch): a 429'd call's kept turn in its paced bucket. */
  readonly retryAt?: number;
}

/** A Web API or response_url answer that is not a success; `disposition` comes from classifying it. */
export class SlackApiError extends DeliveryError {
  override name = "SlackApiError";
  constructor(
    readonly method: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly disposition: "retry" | "park",
    override readonly retryAfterMs?: number,
    override readonly retryAt?: number,
  ) {
    super(`${method}: ${code ? `${status} ${code}` : `HTTP ${status}`}`);
  }
}

/**
 * A Web API call whose turn in its rate-limit bucket (src/pacing/) is further away than an attempt
 * waits: the row is postponed to `until`, its slot kept, no attempt counted.
 */
export class Paced extends DeliveryError {
  override name = "Paced";
  readonly disposition = "postpone";
  constructor(
    readonly bucket: string,
    readonly until: number,
  ) {
    super(`paced: ${bucket} until ${new Date(until).toISOString()}`);
  }
}

/** The call never got an answer: connection refused or reset, or DELIVERY_TIMEOUT_MS passed. */
export class SlackUnreachable extends DeliveryError {
  override name = "SlackUnreachable";
  readonly disposition = "retry";
}

/** A trigger_id or response_url past its lifetime: no retry can bring it back. */
export class ExpiredHandle extends DeliveryError {
  override name = "ExpiredHandle";
  readonly disposition = "park";
}

/** A response_url pointing outside RESPONSE_URL_ORIGINS: never fetched. */
export class ForbiddenUrl extends DeliveryError {
  override name = "ForbiddenUrl";
  readonly disposition = "park";
}

/** A run whose listener a deploy removed or changed, so it no longer matches its delivery. */
export class ListenerGone extends DeliveryError {
  override name = "ListenerGone";
  readonly disposition = "park";
}

/**
 * OAuth mode: the workspace has no usable installation — never installed, uninstalled, or its
 * tokens revoked (by Slack, or a refresh Slack refused). Parked at once: no retry brings it back;
 * a reinstall and a replay do.
 */
export class NotInstalled extends DeliveryError {
  override name = "NotInstalled";
  readonly disposition = "park";
}

/** OAuth mode: the installation's token could not be refreshed just now (Slack unreachable, 5xx). */
export class TokenRefreshFailed extends DeliveryError {
  override name = "TokenRefreshFailed";
  readonly disposition = "retry";
}

/** No bot token for the workspace yet (single-workspace mode without SLACK_BOT_TOKEN). Fixable by config. */
export class MissingBotToken extends DeliveryError {
  override name = "MissingBotToken";
  readonly disposition = "retry";
}

/** An outbox row whose stored effect cannot be read back (or names a kind this build lacks). */
export class UnreadableEffect extends DeliveryError {
  override name = "UnreadableEffect";
  readonly disposition = "park";
}

/** Another attempt holds the run's lease now; this one stops without settling. */
export class LeaseLost extends DeliveryError {
  override name = "LeaseLost";
  readonly disposition = "lease_lost";
}

/** Relay mode: the backend said never again (`410`, or `x-slack-no-retry: 1`). Parked at once. */
export class RelayRefused extends DeliveryError {
  override name = "RelayRefused";
  readonly disposition = "park";
}

/**
 * Relay mode: the backend failed this attempt (a non-2xx, a timeout, no connection). Retried with
 * backoff, honouring Retry-After, until RELAY_RETRY_HOURS after the delivery was recorded.
 */
export class RelayFailed extends DeliveryError {
  override name = "RelayFailed";
  readonly disposition = "retry";
  constructor(
    message: string,
    override readonly retryUntil: number,
    override readonly retryAfterMs?: number,
    /** The backend's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** ALERT_WEBHOOK_URL refused an alert for good (a 4xx other than 429), or is not set: parked. */
export class UndeliverableAlert extends DeliveryError {
  override name = "UndeliverableAlert";
  readonly disposition = "park";
}

/**
 * Thrown by a handler's own code (a bug, not a Slack answer): retried a few times, since a
 * deploy may fix it, then parked with the first line of its stack.
 */
export class HandlerError extends DeliveryError {
  override name = "HandlerError";
  readonly disposition = "retry";
  constructor(
    readonly listener: string,
    cause: unknown,
    override readonly maxAttempts: number,
  ) {
    super(`handler "${listener}" threw ${describeThrown(cause)}`, { cause });
  }
}

/**
 * A handler used a helper this delivery cannot support (`say()` with no channel, `respond()` with
 * no response_url, a `step()` name or result that cannot be stored): every attempt would fail the
 * same way, so parked at once, the message saying what to use instead.
 */
export class HandlerMisuse extends DeliveryError {
  override name = "HandlerMisuse";
  readonly disposition = "park";
}

/** Throw this from a handler for a failure that a later attempt can get past (a flaky API of yours). */
export class RetryableError extends DeliveryError {
  override name = "RetryableError";
  readonly disposition = "retry";
  override readonly retryAfterMs?: number;
  constructor(message: string, options: { retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** `Name: message` and where it was thrown (the first stack frame), bounded. */
function describeThrown(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 300);
  const frame = error.stack
    ?.split("\n")
    .find((line) => line.trim().startsWith("at "))
    ?.trim();
  return `${error.name}: ${error.message}`.slice(0, 300) + (frame ? ` (${frame.slice(0, 200)})` : "");
}

/**
 * What an attempt's error means for its row, read from the error's class. Anything else is
 * unexpected in our own code: retried, with its description as the reason.
 */
export function verdictOf(error: unknown): Verdict {
  if (!(error instanceof DeliveryError)) {
    return { outcome: "retry", reason: describeThrown(error) };
  }
  const reason = error.message.slice(0, 500);
  switch (error.disposition) {
    case "lease_lost":
      return { outcome: "lease_lost" };
    case "postpone":
      return { outcome: "postpone", until: error instanceof Paced ? error.until : Date.now() };
    case "park":
      return { outcome: "park", reason };
    case "retry":
      return {
        outcome: "retry",
        reason,
        retryAfterMs: error.retryAfterMs,
        maxAttempts: error.maxAttempts,
        retryUntil: error.retryUntil,
        retryAt: error.retryAt,
      };
  }
}
