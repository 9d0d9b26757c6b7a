/**
 * Every error the coordinator throws on purpose, in one vocabulary. Each class says what it
 * means as a property, and nobody matches on `error.name`:
 * - at the edge, a `Rejection` carries the HTTP status Slack sees and whether Slack may retry;
 * - in delivery, a `DeliveryError` (deliveryErrors.ts, re-exported here) carries its
 *   `disposition`, what happens to the outbox row: retried with backoff (`retry`), parked for an
 *   operator (`park`), left alone because another attempt owns it (`lease_lost`), or postponed;
 *   the settlement an attempt comes to is read from it (settlement.ts, re-exported here).
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
 * Refused by its shard, which had more queued in front of it than it serves in time (ShardOverloaded):
 * 503 without no-retry, nothing recorded, so Slack's retry comes when the shard has room.
 */
export class Overloaded extends Rejection {
  override name = "Overloaded";
  constructor(message = "shard overloaded; retry later") {
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

/**
 * A shard's refusal of an ingest that waited in its queue past OVERLOAD_WAIT_MS, with what Cloudflare's own refusal
 * carries: `overloaded`, which callers must not retry (retrying adds to the queue that caused it). Thrown before anything
 * is written; the edge answers it as Overloaded.
 */
export class ShardOverloaded extends Error {
  override name = "ShardOverloaded";
  readonly overloaded = true;
  readonly retryable = false;
  constructor(waitedMs: number, maxWaitMs: number) {
    super(`Durable Object is overloaded. Requests queued for too long (${waitedMs} ms; OVERLOAD_WAIT_MS ${maxWaitMs}).`);
  }
}

/**
 * The edge's refusal of an ingest to a shard it already has SHARD_INGESTS_IN_FLIGHT_MAX ingests unanswered from
 * (routing/recordWithinBudget.ts): Cloudflare's "Too many requests queued", as this instance sees the queue. `overloaded`, so never retried.
 */
export class IngestsInFlight extends Error {
  override name = "IngestsInFlight";
  readonly overloaded = true;
  constructor(inFlight: number, max: number) {
    super(`shard overloaded: ${inFlight} ingests in flight from this instance (SHARD_INGESTS_IN_FLIGHT_MAX ${max})`);
  }
}

/** An RPC of one role called on a Durable Object playing another (a watch method on a workspace shard …). */
export class WrongRole extends Error {
  override name = "WrongRole";
  constructor(object: string, role: string, wanted: string) {
    super(`"${object}" is ${role}, not ${wanted}`);
  }
}

/** A migration as `schema_migrations` holds it and `MIGRATIONS` lists it: its id and its name. */
export interface MigrationId {
  id: number;
  name: string;
}

/**
 * A Durable Object whose stored schema has a migration newer than any this code knows: a
 * rollback past a migration. Old code on a newer schema breaks in ways nobody tested, so every
 * RPC is refused with this instead. Not a Rejection: the edge answers Slack `503` (NotRecorded),
 * which Slack retries until a version that knows the schema is deployed.
 */
export class SchemaNewerThanCode extends Error {
  override name = "SchemaNewerThanCode";
  constructor(
    readonly applied: MigrationId,
    readonly known: MigrationId | null,
  ) {
    const knows = known ? `migrations up to ${known.id} (${known.name})` : "no migration";
    super(
      `this object's schema is at migration ${applied.id} (${applied.name}) but this code knows ${knows}: ` +
        'roll forward, or see docs/guides/operations.md "Rolling back safely"',
    );
  }
}

/** A sealed token no configured key can open (unknown key id, or tampered with). */
export class TokenUnreadable extends Error {
  override name = "TokenUnreadable";
}

// ── Delivery: what happens to an outbox row ──────────────────────────────────────────────────

export type { Disposition } from "./deliveryErrors";
export {
  DeliveryError,
  ExpiredHandle,
  ForbiddenUrl,
  HandlerError,
  HandlerMisuse,
  LeaseLost,
  ListenerGone,
  MissingBotToken,
  MissingScope,
  NotInstalled,
  Paced,
  Postponed,
  RelayFailed,
  RelayRefused,
  RetryableError,
  RunSleeping,
  RunSuspended,
  RunWaiting,
  SlackApiError,
  SlackUnreachable,
  TokenRefreshFailed,
  UndeliverableAlert,
  UnreadableEffect,
} from "./deliveryErrors";
export { SubrequestsSpent } from "./invocationMeter";
export type { CodedError, ParkedErrorCode } from "./runErrors";
export {
  INTERRUPTED,
  ModelAborted,
  ParkedError,
  RunStopped,
  STOPPED_BY_USER,
  StartsExhausted,
  stoppedBy,
} from "./runErrors";
export type { Settlement } from "./settlement";
export { settlementOf } from "./settlement";
