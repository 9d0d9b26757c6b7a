/**
 * The delivery errors (platform/errors.ts re-exports them): what an attempt's failure asks for its
 * outbox row, as its `disposition` — retried with backoff (`retry`), parked for an operator
 * (`park`), left alone because another attempt owns it (`lease_lost`), put back without an
 * attempt counted (`postpone`), or ended as its user stopped it (`stop`: runErrors.ts). The settlement an attempt's error comes to is settlement.ts.
 */
import { describeError } from "./log";

/** What a DeliveryError asks for its outbox row (docs/design.md "Words"); `stop`: an outcome the user chose, kept apart from failures. */
export type Disposition = "retry" | "park" | "lease_lost" | "postpone" | "stop";

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
  /** The next attempt at exactly this time (ms since the epoch): a 429'd call's kept turn under its paced rate key. */
  readonly retryAt?: number;
}

/** A Web API or response_url answer that is not a success; `disposition` comes from classifying it. */
export class SlackApiError extends DeliveryError {
  override name = "SlackApiError";
  /** The call was made with a token its caller passed (`token:`), not the workspace's bot token. */
  callerToken = false;
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
 * `missing_scope`: the token lacks the scope Slack names in `needed` — the workspace did not grant
 * it (an optional scope declined, an install older than the manifest). Parked at once, never retried.
 */
export class MissingScope extends SlackApiError {
  constructor(
    method: string,
    status: number,
    readonly needed: string | undefined,
  ) {
    super(method, status, "missing_scope", "park");
    if (needed) this.message += ` (needs ${needed}, which this workspace did not grant)`;
  }
}

/** Not yet: the row waits until `until`, no attempt counted, no lease or isolate held meanwhile. */
export abstract class Postponed extends DeliveryError {
  readonly disposition = "postpone";
  abstract readonly until: number;
}

/**
 * A Web API call whose turn under its rate key (src/pacing/) is further away than an attempt
 * waits: the row is postponed to `until`, its slot kept, no attempt counted.
 */
export class Paced extends Postponed {
  override name = "Paced";
  constructor(
    readonly rateKey: string,
    readonly until: number,
  ) {
    super(`paced: ${rateKey} until ${new Date(until).toISOString()}`);
  }
}

/**
 * A run suspended by itself (app/waits/): it goes on from the top at `until` — or sooner, when a
 * person answers what it waits for — its steps kept. `forPerson`: it waits for a person's click.
 */
export abstract class RunSuspended extends Postponed {
  abstract readonly forPerson: boolean;
}

/** A run's durable `sleep(name, ms)` / `sleepUntil(name, at)`. */
export class RunSleeping extends RunSuspended {
  override name = "RunSleeping";
  readonly forPerson = false;
  constructor(
    readonly sleep: string,
    readonly until: number,
  ) {
    super(`sleeping (${sleep}) until ${new Date(until).toISOString()}`);
  }
}

/** A run's durable `waitForAction(name, …)`: woken by a click on its question's buttons, or at its timeout. */
export class RunWaiting extends RunSuspended {
  override name = "RunWaiting";
  readonly forPerson = true;
  constructor(
    readonly wait: string,
    readonly until: number,
  ) {
    super(`waiting for a person (${wait}) until ${new Date(until).toISOString()}`);
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
  constructor(
    message: string,
    /** What the fence refused: a checkpoint (a step's, a stream's) or a post about to be sent. */
    readonly fencedAt: "step" | "post" = "step",
  ) {
    super(message);
  }
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
    /** The backend's HTTP status, when it responded. */
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
    super(`handler "${listener}" threw ${describeError(cause, true)}`, { cause });
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
