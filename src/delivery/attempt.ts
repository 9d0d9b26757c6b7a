import type { Effect } from "../app/contract";
import { sealedFunctionTokenOf } from "../app/functions";
import type { Authorization } from "../auth/authorize";
import { openFunctionToken } from "../auth/functionTokens";
import type { EffectContext } from "../effects/kind";
import type { ReadyKind } from "../effects/registry";
import { callPacing } from "../pacing/pacing";
import type { AttemptStop } from "../parts/stops";
import type { InvocationMeter } from "../platform/invocationMeter";
import { AttemptOutbound } from "../platform/outboundCalls";
import type { ClaimedRow } from "../recording/outbox";
import { inFirstLease } from "../recording/outboxRows";
import { type CallOutcome, webApiDestination } from "../rpc/outcomes";
import { type ClientOptions, createSlackClient, type SlackWebClient } from "../slack/client";
import { AttemptPosts } from "./attemptPosts";
import type { AttemptStory } from "./attemptStory";
import type { Courier } from "./courier";
import type { DeliveryFields } from "./deliveryFields";
import { stepFor } from "./stepCheckpoints";
import { streamLedgerFor } from "./streamLedger";

/**
 * One attempt of a claimed row, made of its shard's courier: the effect's kind, the attempt's door
 * for its calls, its stop, its posts — and, as they are asked for, the workspace's credentials
 * (`authorize()`), the Slack client (`client()`) and what the kind performs with (`context()`).
 * Throws RunStopped as it is made when a stop stopped the row while the attempt waited in line.
 */
export class Attempt {
  readonly key: string;
  /** The row's kind and its own dependencies, drawn once per shard: nothing kind-specific is built per row. */
  readonly kind: ReadyKind["kind"];
  readonly deps: ReadyKind["deps"];
  /** This attempt's calls, its pace keepers' included, go through the shard's door; it remembers a refusal. */
  readonly outbound: AttemptOutbound;
  readonly posts: AttemptPosts;
  /** The stop's signal for this attempt, if its row belongs to a conversation (parts/stops/). */
  readonly stop?: AttemptStop;
  /** A custom step's rows call Slack with the function's token (Bolt's attachFunctionToken). */
  private readonly sealedToken?: string;
  private readonly calls: ClientOptions;
  private authorization?: Authorization;
  private authorizing?: Promise<Authorization>;

  constructor(
    private readonly courier: Courier,
    readonly effect: Effect,
    readonly row: ClaimedRow,
    readonly token: string,
    readonly fields: DeliveryFields,
    story?: AttemptStory,
    meter: InvocationMeter = courier.meters.current,
  ) {
    const { outbox, settings } = courier;
    const key = row.idempotency_key;
    this.key = key;
    ({ kind: this.kind, deps: this.deps } = courier.kinds(effect));
    this.stop = courier.parts.stops.begin(effect, key, inFirstLease(row.noCheckpointsUntil) ? undefined : row.created_at);
    this.outbound = new AttemptOutbound(courier.outbound.countedOn(meter), () => courier.outbound.meters.cutShort(meter));
    const sealed = sealedFunctionTokenOf(effect);
    this.sealedToken = sealed;
    const startedAt = Date.now();
    this.posts = new AttemptPosts({
      key,
      eventId: fields.event_id,
      shard: courier.shard,
      token,
      workspace: row.workspace,
      // A fresh row's first lease is this attempt's alone (no claim can take it before it runs out; a
      // stop aborts `stopped`, which refuses the post first): only asked of SQLite past it.
      holds: () => inFirstLease(row.noCheckpointsUntil) || outbox.holds(key, token),
      uncertainSince: row.posts_uncertain_since ?? null,
      claimedAt: row.claimed_at ?? startedAt,
      startedAt,
      pageSize: settings.history.pageSize,
      // One per shard (parts/posts/): a conversation's lookups serve all its rows, a row's wait for them spans its attempts.
      lookups: courier.parts.posts.lookups,
      waits: courier.parts.posts.waits(settings.history.maxWaitMs),
      // A lookup's reads wait for its conversation's turn, not this row's (parts/posts/postLookups.ts).
      read: (method, body, holder) => createSlackClient({ ...this.calls, pacing: this.pacedAs(holder) }).call(method, body),
      grantedScopes: () => this.authorization?.botScopes,
      found: (method, ts) => story?.found(method, ts),
    });
    this.calls = {
      apiUrl: settings.apiUrl,
      timeoutMs: settings.delivery.timeoutMs,
      outbound: this.outbound,
      responseUrlOrigins: settings.responseUrlOrigins,
      handles: {
        recordedAt: row.created_at,
        attempts: row.attempts,
        responseUrlUsesBefore: this.kind.attemptUsesResponseUrl ? row.attempts : 0,
      },
      observe: (method, ok, error, detail) => {
        this.observe(webApiDestination(row.workspace, method, ok, error));
        story?.call(method, ok, error, detail);
      },
      traced: fields,
      stopped: this.stop?.signal,
      token: sealed ? () => openFunctionToken(courier.env, sealed) : async () => (await this.authorize()).botToken,
    };
  }

  /** The row's workspace's credentials: asked of `authorize` once per attempt, by whoever asks first (a call, a userToken). */
  authorize(): Promise<Authorization> {
    this.authorizing ??= Promise.resolve(this.courier.authorize({ workspace: this.row.workspace }, this.courier.env)).then(
      (answer) => {
        this.authorization = answer;
        return answer;
      },
    );
    return this.authorizing;
  }

  /** Slack refused the token `authorize` gave: its issuer is told (nothing when none was asked for). */
  async tokenRejected(code: string): Promise<void> {
    await this.authorization?.onRejected?.(code);
  }

  /** A client with the row's credentials and handles, its posts named and looked for (attemptPosts.ts). */
  client(): SlackWebClient {
    return createSlackClient({ ...this.calls, pacing: this.pacedAs(this.key), posts: this.posts });
  }

  /** What the row's kind performs with: its client, `step()` fenced by the attempt's lease, its ledgers. */
  context(): EffectContext {
    const { courier, row, key, token, fields, posts } = this;
    const { outbox, completions } = courier;
    // A custom step's rows act with the function's token: no installing user's token there.
    const sealed = this.sealedToken !== undefined;
    return {
      client: this.client(),
      step: stepFor(outbox, key, token, row.noCheckpointsUntil, completions.soon.bind(completions), posts.steps, fields),
      streams: streamLedgerFor(outbox, key, token, courier.settings.delivery.leaseMs, completions.flush),
      waits: courier.parts.waits.ledgerFor(key, fields),
      attempts: row.attempts,
      recordedAt: row.created_at,
      key,
      observe: this.observe,
      outbound: this.outbound,
      stopped: this.stop?.signal,
      userToken: sealed ? async () => undefined : async () => (await this.authorize()).userToken,
      grantedScopes: sealed ? async () => undefined : async () => (await this.authorize()).botScopes,
    };
  }

  /** The step results this attempt kept, as its row can hold them: its settle's UPDATE writes them. */
  checkpoints(sizedByTheWrite?: boolean): ReadonlyMap<string, string> {
    return this.posts.steps.checkpoints((kept) => (sizedByTheWrite ? kept : this.courier.outbox.steps.fitting(this.key, kept)));
  }

  /** Tells the shard how a request went, with the row's key (alerts). */
  private readonly observe = (outcome: CallOutcome): void => {
    this.courier.observe?.(outcome, this.key);
  };

  /** The pace keepers of `holder`'s calls in the row's workspace, when pacing is on. */
  private pacedAs(holder: string) {
    const { pacing, settings } = this.courier;
    return pacing && callPacing(pacing, this.row.workspace, holder, settings, this.outbound);
  }
}
