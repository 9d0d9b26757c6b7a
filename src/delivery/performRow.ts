import type { Effect, SlackApp } from "../app/contract";
import { sealedFunctionTokenOf } from "../app/functions";
import type { Authorization, Authorize } from "../auth/authorize";
import { openFunctionToken } from "../auth/functionTokens";
import type { ReadyKinds } from "../effects/registry";
import { callPacing, type KeeperOf } from "../pacing/pacing";
import type { ShardParts } from "../parts/shardParts";
import type { DeliveryEvents } from "../platform/deliveryEvents";
import { DeliveryError, HandlerError, SlackApiError, SubrequestsSpent } from "../platform/errors";
import type { InvocationMeter } from "../platform/invocationMeter";
import { describeError, log } from "../platform/log";
import { AttemptOutbound, DIRECT, type OutboundCalls } from "../platform/outboundCalls";
import { inSpan } from "../platform/spans";
import type { ClaimedRow, Outbox } from "../recording/outbox";
import { inFirstLease } from "../recording/outboxRows";
import type { BackendResponses } from "../relay/backendResponses";
import type { CoordinatorEnv } from "../rpc/env";
import { type CallOutcome, webApiDestination } from "../rpc/outcomes";
import type { DeliverySettings } from "../settings";
import { TOKEN_REJECTIONS } from "../slack/classifyAnswer";
import { type ClientOptions, createSlackClient } from "../slack/client";
import { AttemptPosts, type AttemptReport } from "./attemptPosts";
import type { Completions } from "./completions";
import { type DeliveryFields, deliveryFields } from "./deliveryFields";
import { LookupWaits } from "./lookupWaits";
import { PostLookups } from "./postLookups";
import { stepFor } from "./stepCheckpoints";
import { streamLedgerFor } from "./streamLedger";

/**
 * What a shard's courier is made of, once per shard, and all that performing a row needs
 * (below). An effect kind's own dependencies are not here: each kind drew them from the
 * delivery world into `kinds` (src/effects/), so a new kind adds nothing to this list.
 */
export interface CourierParts {
  shard: string;
  /** The app whose `parked` plans a parked run's follow-ups (parkFollowUps.ts). */
  app?: SlackApp;
  authorize: Authorize<CoordinatorEnv>;
  env: CoordinatorEnv;
  settings: DeliverySettings;
  outbox: Outbox;
  events: DeliveryEvents;
  /** Every effect kind with the dependencies it drew from the shard's delivery world. */
  kinds: ReadyKinds;
  /** Relay mode: the first attempts whose backend response an edge waits for. */
  backendResponses?: BackendResponses;
  /** Told how each request of an attempt went, with the row's key (alerts; see deliveryReports.ts). */
  observe?(outcome: CallOutcome, key: string): void;
  /** Moves the shard's alarm earlier when a row becomes due again. */
  wakeAt(at: number): void;
  /** Who keeps each rate key, when SLACK_PACING is on. */
  pacing?: KeeperOf;
  /** The shard's parts (src/parts/shardParts.ts): an attempt's tools from them — its stop's signal, its run's waits. */
  parts: ShardParts;
  /** The shard's one door for delivery's calls (platform/outboundCalls.ts): counted per invocation, six fetches at a time. */
  outbound: OutboundCalls;
  /** A turn ended: its conversation's next turn may begin (Courier.turnEnded). */
  turnEnded?(conversation: string, key: string, meter?: InvocationMeter): void;
}

/**
 * How a shard performs one row once: the effect's kind, a client with the credentials of the
 * row's workspace (asked of `authorize` only if the attempt calls the Web API) and the row's
 * handles, and `step()` fenced by the attempt's lease.
 */
export function rowPerformer(
  { shard, authorize, env, settings, outbox, kinds, observe: report = () => {}, pacing, parts }: CourierParts,
  shared: {
    /** Writes that share a commit (completions.ts): a step's checkpoint is written `soon`; a stream's turn `flush`es the others into its own. */
    commits?: Pick<Completions, "soon" | "flush">;
    /** The shard's door for every call: counted per invocation, six fetches at a time, each timed from when it leaves. */
    outbound?: OutboundCalls;
  } = {},
) {
  const { commits, outbound: door = DIRECT } = shared;
  // One per shard: the lookups of a conversation's uncertain posts serve all its rows, and a row's wait for them spans its attempts.
  const lookups = new PostLookups(shard);
  const waits = new LookupWaits(settings.history.maxWaitMs);
  const performOnce = (
    effect: Effect,
    row: ClaimedRow,
    token: string,
    fields: DeliveryFields,
    attempt?: AttemptReport,
    invocation?: InvocationMeter,
  ): Promise<void> => {
    // The kind and its own dependencies, drawn once per shard: nothing kind-specific is built per row.
    const { kind, deps } = kinds(effect);
    const key = row.idempotency_key;
    const observe = (outcome: CallOutcome) => report(outcome, key);
    let authorization: Authorization | undefined;
    // One authorize per attempt, whoever asks first: the client's first call or the run's userToken.
    let authorizing: Promise<Authorization> | undefined;
    const authorized = () => {
      authorizing ??= Promise.resolve(authorize({ workspace: row.workspace }, env)).then((answer) => {
        authorization = answer;
        return answer;
      });
      return authorizing;
    };
    // Throws RunStopped when a stop stopped the row while this attempt waited in line.
    const stop = parts.stops.begin(effect, key, inFirstLease(row.noCheckpointsUntil) ? undefined : row.created_at);
    // This attempt's calls, its pace keepers' included, go through the shard's door; it remembers a refusal.
    const counted = shared.outbound;
    const meter = invocation ?? counted?.meters.current;
    const outbound = new AttemptOutbound(counted && meter ? counted.countedOn(meter) : door, () => {
      if (counted && meter) counted.meters.cutShort(meter);
    });
    const sealedToken = sealedFunctionTokenOf(effect);
    const startedAt = Date.now();
    const posts = new AttemptPosts({
      key,
      eventId: fields.event_id,
      shard,
      token,
      workspace: row.workspace,
      // A fresh row's first lease is this attempt's alone (no claim can take it before it runs out; a
      // stop aborts `stopped`, which refuses the post first): only asked of SQLite past it.
      holds: () => inFirstLease(row.noCheckpointsUntil) || outbox.holds(key, token),
      uncertainSince: row.posts_uncertain_since ?? null,
      claimedAt: row.claimed_at ?? startedAt,
      startedAt,
      pageSize: settings.history.pageSize,
      lookups,
      waits,
      // A lookup's reads wait for its conversation's turn, not this row's (postLookups.ts).
      read: (method, body, holder) => createSlackClient({ ...calls, pacing: pacedAs(holder) }).call(method, body),
      grantedScopes: () => authorization?.botScopes,
      found: (method, ts) => attempt?.story?.found(method, ts),
    });
    if (attempt) {
      attempt.postsUncertainSince = () => posts.postsUncertainSince();
      attempt.checkpoints = (sized) => posts.steps.checkpoints((kept) => (sized ? kept : outbox.steps.fitting(key, kept)));
    }
    const pacedAs = (holder: string) => pacing && callPacing(pacing, row.workspace, holder, settings, outbound);
    const calls: ClientOptions = {
      apiUrl: settings.apiUrl,
      timeoutMs: settings.delivery.timeoutMs,
      outbound,
      responseUrlOrigins: settings.responseUrlOrigins,
      handles: {
        recordedAt: row.created_at,
        attempts: row.attempts,
        responseUrlUsesBefore: kind.attemptUsesResponseUrl ? row.attempts : 0,
      },
      observe: (method, ok, error, detail) => {
        observe(webApiDestination(row.workspace, method, ok, error));
        attempt?.story?.call(method, ok, error, detail);
      },
      traced: fields,
      stopped: stop?.signal,
      // A custom step's rows call Slack with the function's token (Bolt's attachFunctionToken).
      token: sealedToken ? () => openFunctionToken(env, sealedToken) : async () => (await authorized()).botToken,
    };
    const client = createSlackClient({ ...calls, pacing: pacedAs(key), posts });
    const performed = kind.perform(
      effect,
      {
        client,
        step: stepFor(outbox, key, token, row.noCheckpointsUntil, commits?.soon.bind(commits), posts.steps, fields),
        streams: streamLedgerFor(outbox, key, token, settings.delivery.leaseMs, commits?.flush),
        waits: parts.waits.ledgerFor(key, fields),
        attempts: row.attempts,
        recordedAt: row.created_at,
        key,
        observe,
        outbound,
        stopped: stop?.signal,
        // A custom step's rows act with the function's token: no installing user's token there.
        userToken: sealedToken ? async () => undefined : async () => (await authorized()).userToken,
        grantedScopes: sealedToken ? async () => undefined : async () => (await authorized()).botScopes,
      },
      deps,
    );
    // The attempt ends however it went: a stop no longer reaches it.
    const end = () => stop?.end();
    performed.then(end, end);
    return performed.then(
      () => {
        // A refusal its handler caught is still one: the row goes on in a later invocation, not taken as delivered.
        const refusal = outbound.refusal();
        if (refusal) throw refusal;
      },
      async (error: unknown) => {
        // A handler's own error after a refusal came of it. A stop, a lost lease or Slack's refusal still rules.
        if (error instanceof HandlerError || !(error instanceof DeliveryError) || error instanceof SubrequestsSpent) {
          const refusal = outbound.refusal();
          if (refusal) throw refusal;
        }
        // Slack refused the token itself: say so to whoever issued it, then fail as usual (parked).
        // (Not a token the handler passed itself, such as context.userToken: the bot's is still good.)
        if (
          error instanceof SlackApiError &&
          error.code !== undefined &&
          TOKEN_REJECTIONS.has(error.code) &&
          !error.callerToken
        ) {
          try {
            await authorization?.onRejected?.(error.code);
          } catch (problem) {
            log("warn", "token rejection not reported", { ...fields, error: describeError(problem) });
          }
        }
        throw error;
      },
    );
  };
  // One span per attempt, its Slack calls, steps and waits inside it; ended when the attempt settles.
  return (
    effect: Effect,
    row: ClaimedRow,
    token: string,
    attempt?: AttemptReport,
    invocation?: InvocationMeter,
  ): Promise<void> => {
    const fields = deliveryFields(effect, row);
    return inSpan("attempt", { ...fields, attempt: row.attempts + 1 }, () =>
      performOnce(effect, row, token, fields, attempt, invocation),
    );
  };
}
