import type { CallPacing } from "../pacing/pacing";
import { DeliveryError, ForbiddenUrl, MissingScope, SlackApiError, SlackUnreachable, stoppedBy } from "../platform/errors";
import { CallTimedOut, DIRECT, type Outbound, type Send } from "../platform/outboundCalls";
import { inSpan, type SpanAttributes } from "../platform/spans";
import { classifyAnswer, healthyAnswer } from "./classifyAnswer";
import { assertResponseUrlUsable, assertTriggerUsable, type HandleClock, TRIGGER_METHODS } from "./handles";
import { NAMED_POSTS } from "./postIds";
import { uploadFilesV2 } from "./uploadFilesV2";
import { type CallResult, callWebApi, postFileBytes, postToResponseUrl } from "./webApi";
import { type WebApiMethods, withWebApiMethods } from "./webApiMethods";

type Answer = Record<string, unknown>;

export interface ClientOptions {
  apiUrl: string;
  timeoutMs: number;
  /** The shard's door for its calls: counted, six at a time, each timed from when it leaves (platform/outboundCalls.ts); else a timer per call. */
  outbound?: Outbound;
  /** The workspace's bot token, asked for on the first Web API call (see auth/authorize.ts). */
  token: () => string | Promise<string>;
  /** Origins a response_url may point at (RESPONSE_URL_ORIGINS); anything else is never fetched. */
  responseUrlOrigins: readonly string[];
  /** The delivery this client acts for: its trigger_id and response_url lifetimes count from here. */
  handles?: HandleClock;
  /**
   * Told how each request went (alerts count failures per method). A rate-limited answer is
   * neither: Slack asked to slow down, which the outbox does. A message-state refusal its caller
   * reads (classifyAnswer.ts `healthyAnswer`) is told as healthy.
   */
  observe?(method: string, ok: boolean, error?: string, detail?: CallDetail): void;
  /** Slack's rate limits, kept before each Web API call (src/pacing/); 429s are told to it. */
  pacing?: CallPacing;
  /** A run's stop (agent_session_stopped): once aborted, every request is refused with RunStopped, unsent. */
  stopped?: AbortSignal;
  /** Names each post of the attempt, and looks for it first when an earlier attempt may have made it (delivery/attemptPosts.ts). */
  posts?: PostGuard;
  /** The attempt's ids (event, workspace, listener), on each call's span. */
  traced?: SpanAttributes;
}

/** What stands before every post of an attempt (`chat.postMessage`, see postIds.ts). */
export interface PostGuard {
  /**
   * Sends `body` by `send`, named by the post's id, or answers as Slack answered the post an
   * earlier attempt made. Called synchronously when the call is made, so the ids follow the
   * handler's order of calls, not the order their answers come in.
   */
  post<T extends Answer>(method: string, body: Answer, send: (body: Answer) => Promise<T>): Promise<T>;
  /** Any other call (a response_url's too) starts: told synchronously, as the handler makes it. */
  called?(): void;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The internal call sent despite a run's stop (see SlackClient[CLEAN_UP]). */
export const CLEAN_UP = Symbol("cleanUp");

/** A post its caller wrote ahead and recovers itself (a streamed reply's message): not named by the PostGuard. */
export const WRITTEN_AHEAD = Symbol("writtenAhead");

/** The client handlers get: `call`, `respond`, and every Web API method typed (`client.users.info(…)`). */
export type SlackWebClient = SlackClient & WebApiMethods;

/** A client for one attempt, with the typed method tree. */
export function createSlackClient(options: ClientOptions): SlackWebClient {
  return withWebApiMethods(new SlackClient(options));
}

/**
 * The Web API client handed to effects and durable handlers: bound to one workspace's token, one
 * fetch per call with its own timeout, no retries of its own (a failed call fails the attempt,
 * and the outbox retries it — completed steps are not repeated). Failures are thrown as the
 * errors of platform/errors.ts, which say whether the outbox retries or parks.
 */
export class SlackClient {
  private token?: Promise<string>;
  /** response_url posts made through this client (one attempt), toward Slack's 5 uses. */
  private responds = 0;

  constructor(private readonly options: ClientOptions) {}

  call<T extends Answer = Answer>(method: string, body: Record<string, unknown>): Promise<T> {
    // Not async: the guard names the post in the turn the handler made the call.
    const { posts, stopped } = this.options;
    if (posts && NAMED_POSTS.has(method)) {
      // A stopped run's post is refused as any of its calls, before the guard asks for the lease.
      if (stopped?.aborted) return Promise.reject(stoppedBy(stopped));
      return posts.post<T>(method, body, (named) => this.send<T>(method, named, true));
    }
    posts?.called?.();
    return this.send<T>(method, body, true);
  }

  /** A call whose caller wrote it ahead and finds it again itself (a streamed reply's posted message). */
  async [WRITTEN_AHEAD]<T extends Answer = Answer>(method: string, body: Record<string, unknown>): Promise<T> {
    this.options.posts?.called?.();
    return this.send<T>(method, body, true);
  }

  /**
   * A call that undoes what this attempt alone knows it did (a stream started but fenced out of
   * its checkpoint): sent even after the run's stop, which would otherwise leave it behind. Keyed
   * by a symbol, so a handler's `client` does not offer it.
   */
  async [CLEAN_UP]<T extends Answer = Answer>(method: string, body: Record<string, unknown>): Promise<T> {
    return this.send<T>(method, body, false);
  }

  private async send<T extends Answer>(method: string, body: Record<string, unknown>, stoppable: boolean): Promise<T> {
    // Not one method but Slack's upload flow (three calls and an upload), as Slack's SDKs offer it.
    if (method === "files.uploadV2") return (await uploadFilesV2(this, body as never)) as T;
    const { handles } = this.options;
    if (TRIGGER_METHODS.has(method) && handles && typeof body.trigger_id === "string")
      assertTriggerUsable(handles, Date.now(), method);
    // Bolt's `token:` argument (a user's token, `context.userToken`) is the call's credential, not a field of its body:
    // the body is copied without it only when a caller gave one.
    const given = body.token;
    const callerToken = typeof given === "string" && given !== "";
    const sent = callerToken ? withoutToken(body) : body;
    if (!callerToken) this.token ??= Promise.resolve(this.options.token());
    const token = callerToken ? (given as string) : await this.token;
    const { pacing, stopped } = this.options;
    // A stop ends a paced wait at once: the call is refused then (answer() below), not after Slack's pace.
    const paced = pacing?.before(method, sent);
    // A wait left for a stop may still fail later: nobody is waiting for it then.
    paced?.catch(() => {});
    await (stoppable && stopped && paced ? Promise.race([paced, abortOf(stopped)]) : paced);
    try {
      const result = await this.answer(
        method,
        (signal, answered) =>
          callWebApi({ apiUrl: this.options.apiUrl, authorization: `Bearer ${token}`, method, body: sent, signal, answered }),
        // A 429 under a paced rate key: the attempt is retried exactly at its kept turn, so the order holds.
        (retryAfterMs) => pacing?.rateLimited(method, sent, Date.now() + retryAfterMs),
        stoppable,
      );
      return (result.body ?? {}) as T;
    } catch (error) {
      if (callerToken && error instanceof SlackApiError) error.callerToken = true;
      throw error;
    }
  }

  /** POSTs a file's bytes to an `upload_url` Slack gave (files.uploadV2), classified like any call. */
  async uploadBytes(url: string, bytes: Uint8Array): Promise<void> {
    await this.answer("files.upload", (signal, answered) => postFileBytes(url, bytes, signal, answered));
  }

  /** POSTs to a `response_url` (no token: the URL is the credential), within its lifetime and uses. */
  async respond(url: string, body: Record<string, unknown>): Promise<void> {
    this.options.posts?.called?.();
    // The origin only in the reason: the rest of a response_url is its credential, and reasons are logged.
    if (!this.allowsResponseUrl(url))
      throw new ForbiddenUrl(`response_url origin not in RESPONSE_URL_ORIGINS: ${originOf(url) ?? "(not a URL)"}`);
    const { handles } = this.options;
    if (handles) assertResponseUrlUsable(handles, handles.responseUrlUsesBefore + this.responds, Date.now());
    this.responds++;
    await this.answer("response_url", (signal, answered) => postToResponseUrl(url, body, signal, answered));
  }

  private allowsResponseUrl(url: string): boolean {
    const origin = originOf(url);
    return origin !== undefined && this.options.responseUrlOrigins.includes(origin);
  }

  /** One request within DELIVERY_TIMEOUT_MS; anything but success is thrown, classified. */
  private async answer(
    method: string,
    send: Send<CallResult>,
    rateLimited?: (retryAfterMs: number) => Promise<number | undefined> | undefined,
    stoppable = true,
  ): Promise<CallResult> {
    // Checked here, after the token and any paced wait: a stop meanwhile sends nothing more.
    const { observe, stopped, timeoutMs, outbound = DIRECT } = this.options;
    if (stoppable && stopped?.aborted) throw stoppedBy(stopped);
    let result: CallResult;
    const sentAt = Date.now();
    const detail = (answer?: CallResult): CallDetail => ({ ms: Date.now() - sentAt, ...tsOf(answer) });
    try {
      result = await inSpan(
        "slack.call",
        () => ({ ...this.options.traced, "slack.method": method }),
        () =>
          outbound.call(timeoutMs, (signal, answered) => {
            // Again once it holds a connection: a stop while it queued for one sends nothing either.
            if (stoppable && stopped?.aborted) throw stoppedBy(stopped);
            return send(signal, answered);
          }),
      );
    } catch (error) {
      // Ours, not Slack's: a stop, or the invocation's subrequests spent. Nothing was sent.
      if (error instanceof DeliveryError) throw error;
      const why =
        error instanceof CallTimedOut
          ? `timeout after ${timeoutMs} ms`
          : `network: ${error instanceof Error ? error.message : String(error)}`;
      const unreachable = new SlackUnreachable(`${method}: ${why}`.slice(0, 300), { cause: error });
      observe?.(method, false, unreachable.message, detail());
      throw unreachable;
    }
    const answerClass = classifyAnswer(result, method);
    if (answerClass === "delivered") {
      observe?.(method, true, undefined, detail(result));
      return result;
    }
    if (result.status !== 429) {
      const refused =
        result.error === "missing_scope"
          ? new MissingScope(method, result.status, typeof result.body?.needed === "string" ? result.body.needed : undefined)
          : new SlackApiError(method, result.status, result.error, answerClass, result.retryAfterMs);
      observe?.(method, healthyAnswer(result, method), refused.message, detail(result));
      throw refused;
    }
    const turn = result.retryAfterMs === undefined ? undefined : await rateLimited?.(result.retryAfterMs);
    throw new SlackApiError(method, result.status, result.error, answerClass, result.retryAfterMs, turn);
  }
}

/** How long a call took (from when it was asked for), and the message `ts` Slack answered with, if any: an attempt's story. */
export interface CallDetail {
  ms: number;
  ts?: string;
}

const tsOf = (answer?: CallResult) => (typeof answer?.body?.ts === "string" ? { ts: answer.body.ts } : {});

/** A call's body without the caller's `token` (sent as its credential instead). */
function withoutToken(body: Record<string, unknown>): Record<string, unknown> {
  const { token: _, ...rest } = body;
  return rest;
}

/** Resolves once `signal` aborts (at once if it has). */
function abortOf(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
