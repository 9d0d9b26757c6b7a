import type { LookupWaits, PostLookups } from "../parts/posts";
import { DeliveryError, LeaseLost, SlackApiError } from "../platform/errors";
import { describeError, log } from "../platform/log";
import type { PostGuard } from "../slack/client";
import { findPosted, mayRead, type PostedMessages, type PostPlace, readablePlace } from "../slack/postedMessages";
import { withPostId } from "../slack/postIds";
import { heldUntil, outcomeUnknown } from "../slack/refusals";
import type { AttemptStory } from "./attemptStory";
import { AttemptSteps } from "./runningSteps";

type Answer = Record<string, unknown>;

/** What the settle of an attempt learns of its posts (deliverClaimed.ts). */
export interface AttemptReport {
  /** This attempt's start when a post it sent may be in Slack and its retry would send it again; else null. */
  postsUncertainSince(): number | null;
  /** Its story: each Slack call, written with its settle (attemptStory.ts). */
  story?: AttemptStory;
  /**
   * The step results it kept for its settle's UPDATE (asked first: the posts they record are no longer uncertain),
   * those the row has room for; `sizedByTheWrite`: all, the UPDATE leaving out what does not fit (the completion's: doneRows.ts).
   */
  checkpoints?(sizedByTheWrite?: boolean): ReadonlyMap<string, string>;
}

export interface AttemptPostsParts {
  key: string;
  /** The row's delivery (deliveryFields.ts), named by every line this attempt's posts write. */
  eventId?: string;
  /** The shard performing the attempt, named by the warning of a lookup given up. */
  shard: string;
  token: string;
  workspace: string;
  /** Whether the attempt still holds the row's lease (asked before each post). */
  holds(): boolean;
  /** Since when the row's posts are uncertain, as its claim read it (null: no earlier attempt can have posted unbeknown). */
  uncertainSince: number | null;
  /** When this attempt's lease was taken (every earlier attempt of the row had ended by then). */
  claimedAt: number;
  startedAt: number;
  /** SLACK_HISTORY_PAGE_SIZE: messages a lookup asks for a page. */
  pageSize: number;
  /** The shard's lookups, shared by the rows of a conversation (parts/posts/postLookups.ts). */
  lookups: PostLookups;
  /** How long each row of the shard has waited for its lookup (SLACK_HISTORY_MAX_WAIT_MS: parts/posts/lookupWaits.ts). */
  waits: LookupWaits;
  /** Slack's reads with the attempt's credentials (classified), paced as `holder`'s turn. */
  read(method: string, body: Answer, holder: string): Promise<Answer>;
  /** The scopes the attempt's token was granted, once known (undefined: not known). */
  grantedScopes?(): readonly string[] | undefined;
  /** A post answered by a lookup instead of being made (its story's call, `foundByLookup`). */
  found?(method: string, ts: string): void;
}

/** Workspaces already told their posts cannot be looked for (no history scope): told once per isolate. */
const toldUnreadable = new Set<string>();

/**
 * Workspaces whose token lacks the history scopes, until when their lookups are not tried (each
 * would spend a paced read on a refusal): a reinstall with the scopes is seen within this long.
 */
const missingScopeUntil = new Map<string, number>();
export const MISSING_SCOPE_RECHECK_MS = 10 * 60_000;

/**
 * The posts of one attempt of one row: each `chat.postMessage` is named (the row's key, the step
 * it is made in, its place among that step's posts) in its message metadata; when an earlier
 * attempt may have posted unbeknown to the row, the post is first looked for in Slack by that
 * name, and a post found is answered as Slack answered it, not sent again. Posts made while two
 * steps run at once are not named (whose they are cannot be told), so they stay at-least-once.
 */
export class AttemptPosts implements PostGuard {
  private readonly counts = new Map<string, number>();
  /** One lookup per conversation and attempt, shared by its posts (and by other rows' attempts: parts/posts/); null: given up. */
  private readonly lookups = new Map<string, Promise<PostedMessages | null>>();

  constructor(
    private readonly parts: AttemptPostsParts,
    /** The attempt's running steps, and which of its posts no checkpoint records (runningSteps.ts). */
    readonly steps = new AttemptSteps(),
  ) {}

  called(): void {
    this.steps.called();
  }

  postsUncertainSince(): number | null {
    return this.steps.unrecorded() ? this.parts.startedAt : null;
  }

  post<T extends Answer>(_method: string, body: Answer, send: (body: Answer) => Promise<T>): Promise<T> {
    const step = this.steps.current();
    if (step === null) {
      this.called();
      return send(body);
    }
    const scope = step?.name ?? "";
    const n = (this.counts.get(scope) ?? 0) + 1;
    this.counts.set(scope, n);
    return this.named(scope, `${this.parts.key}#${scope}#${n}`, body, send, step?.posting(this.findable(body)));
  }

  /** Whether a lookup could find this post after a crash: a conversation this attempt was not already uncertain in, that the token may read. */
  private findable(body: Answer): boolean {
    const place = readablePlace(body);
    const { uncertainSince, workspace, grantedScopes } = this.parts;
    if (uncertainSince !== null || !place || (missingScopeUntil.get(workspace) ?? 0) > Date.now()) return false;
    return mayRead(place, grantedScopes?.());
  }

  private async named<T extends Answer>(
    scope: string,
    id: string,
    body: Answer,
    send: (body: Answer) => Promise<T>,
    answered?: (answer: Answer) => void,
  ): Promise<T> {
    const named = withPostId(body, id);
    if (this.parts.uncertainSince !== null) {
      const found = await this.lookFor(named, id, this.parts.uncertainSince);
      if (found) return found as T;
    }
    // A stale attempt posts nothing: the one that took the row over looks for this post first.
    if (!this.parts.holds()) throw new LeaseLost(`lease on ${this.parts.key} was taken over before post ${id}`, "post");
    try {
      const answer = await send(named);
      this.steps.posted(scope);
      answered?.(answer);
      return answer;
    } catch (error) {
      if (outcomeUnknown(error)) this.steps.posted(scope);
      throw error;
    }
  }

  /** The answer of the post named `id` if Slack shows it, else undefined (post it). */
  private async lookFor(body: Answer, id: string, since: number): Promise<Answer | undefined> {
    const { key, workspace } = this.parts;
    const place = readablePlace(body);
    if (!place) return this.unreadable(`${String(body.channel)} is not a conversation id Slack's reads take`);
    if ((missingScopeUntil.get(workspace) ?? 0) > Date.now()) return undefined;
    const where = `${place.channel} ${place.threadTs ?? ""}`;
    let lookup = this.lookups.get(where);
    if (!lookup) {
      lookup = this.lookedUp(place, where, since, id);
      this.lookups.set(where, lookup);
    }
    let posted: PostedMessages | null;
    try {
      posted = await lookup;
    } catch (error) {
      this.lookups.delete(where);
      // Refused for good (no history scope, not in the channel): posted as before, at least once.
      if (error instanceof DeliveryError && error.disposition === "park") {
        this.parts.waits.over(key);
        if (error instanceof SlackApiError && error.code === "missing_scope")
          missingScopeUntil.set(workspace, Date.now() + MISSING_SCOPE_RECHECK_MS);
        return this.unreadable(describeError(error));
      }
      // A turn to wait for, a 429, an unreachable Slack, within the bound: the attempt fails and its retry looks again.
      throw error;
    }
    if (posted === null) return undefined;
    const message = posted.byId.get(id);
    if (message) {
      const event_id = this.parts.eventId;
      log("info", "an uncertain post was found in Slack: not posted again", { event_id, key, post: id, ts: String(message.ts) });
      this.parts.found?.("chat.postMessage", String(message.ts));
      return { ok: true, channel: place.channel, ts: message.ts, message };
    }
    if (!posted.complete)
      log("warn", "an uncertain post was not found in the pages read: posted again", {
        event_id: this.parts.eventId,
        key,
        post: id,
        workspace,
      });
    return undefined;
  }

  /**
   * What Slack shows of the conversation `where` (the lookup shared with its other uncertain rows),
   * or null when its turn — in the pace, or after a 429 — comes later than SLACK_HISTORY_MAX_WAIT_MS
   * after the row's first try: then the post is sent again (at least once), said with the key and
   * shard, rather than waiting minutes.
   */
  private async lookedUp(place: PostPlace, where: string, since: number, id: string): Promise<PostedMessages | null> {
    const { key, workspace, lookups, read, pageSize, claimedAt, waits } = this.parts;
    const deadline = waits.deadline(key);
    try {
      const posted = await lookups.find(`${workspace} ${where}`, { since, claimedAt }, (from, holder) =>
        findPosted((method, body) => read(method, body, holder), place, from, pageSize),
      );
      waits.over(key);
      return posted;
    } catch (error) {
      // A turn (the pace's, a 429's) past the bound is not waited for; failed reads are retried like any call.
      const turn = heldUntil(error);
      if (turn !== undefined && turn > deadline) return this.givenUp(id, deadline, turn);
      // A read that failed (Slack down, a 5xx) is no wait for a turn: the bound counts anew from the next try,
      // or an outage longer than the bound would send every uncertain post again the moment Slack is back.
      if (turn === undefined) waits.over(key);
      throw error;
    }
  }

  private givenUp(id: string, deadline: number, turn: number): null {
    const { key, shard, workspace, waits } = this.parts;
    waits.over(key);
    log("warn", "an uncertain post's lookup could not be made within SLACK_HISTORY_MAX_WAIT_MS: posted again (at least once)", {
      event_id: this.parts.eventId,
      key,
      shard,
      workspace,
      post: id,
      waitedMs: Date.now() - (deadline - waits.maxWaitMs),
      turnInMs: turn - Date.now(),
    });
    return null;
  }

  private unreadable(why: string): undefined {
    const { workspace, key } = this.parts;
    if (!toldUnreadable.has(workspace)) {
      toldUnreadable.add(workspace);
      log("warn", "an uncertain post could not be looked for, so it was posted again (at least once); told once per workspace", {
        workspace,
        event_id: this.parts.eventId,
        key,
        why,
      });
    }
    return undefined;
  }
}
