import { FakeCalls, type RecordedCall } from "./fakeCalls";
import { appliedUnder, type CallMatch, FakeFaults, type Fault, playFault, statusOf } from "./fakeFaults";
import { readRequest } from "./fakeRequests";
import { searchAnswer } from "./fakeSearch";
import { FakeAnswers, type FakeMessage, type MessageAuthor } from "./fakeSlackAnswers";
import { FakeOauth } from "./fakeSlackOauth";
import { type FakeStreamLimits, FakeStreams } from "./fakeStreams";
import { FakeRateLimits, type PostLimit, SLACK_TIERS, type TierLimits } from "./fakeTiers";
import { FakeWorkObjects } from "./fakeWorkObjects";
import { type PostedQuestion, type QuestionPlace, waitForQuestion } from "./questionClicks";

/**
 * A fake Slack Web API (and response_url endpoint) that records every call and plays scripted
 * faults: HTTP statuses, Retry-After, `ok:false` codes, hangs and connection resets. It is a
 * plain `Request → Response` handler (`fetch`), so it serves a mocked `fetch` in workerd tests
 * and an HTTP server on 127.0.0.1 alike. Imports nothing from `cloudflare:*`.
 */

export type { RecordedCall } from "./fakeCalls";
export type { CallMatch, Fault } from "./fakeFaults";
export type { FakeMessage, MessageAuthor } from "./fakeSlackAnswers";

export interface FakeSlackOptions extends Partial<FakeStreamLimits> {
  /** Where the fake is reachable (FAKE_SLACK_DEFAULT_ORIGIN unless told). */
  origin?: string;
  /** The fake's clock (`Date.now` unless told): stream lifetimes, rate limits, `ts` and `at`. */
  now?: () => number;
  /** Slack's tiers (true: SLACK_TIERS and 1 post a second per channel), or these calls per minute. */
  enforceTiers?: boolean | TierLimits;
  /** Whether the app's token may read conversations (the `*:history` scopes); true unless told. */
  historyScopes?: boolean;
}

/** The methods that read what the app posted back (refused missing_scope without the history scopes). */
const HISTORY_READS = new Set(["conversations.history", "conversations.replies"]);

/** A method's answer scripted by `answerWith`: a JSON body, or one made from the call's body. */
export type ScriptedAnswer = Record<string, unknown> | ((body: Record<string, unknown>) => Record<string, unknown>);

/** Where a FakeSlack answers unless told: a name that never resolves, so nothing leaves the test. */
export const FAKE_SLACK_DEFAULT_ORIGIN = "http://fake-slack.invalid";

export class FakeSlack {
  private readonly recorded = new FakeCalls();
  readonly calls: RecordedCall[] = this.recorded.calls;
  private readonly faults = new FakeFaults();
  private readonly oauth = new FakeOauth();
  private readonly answers: FakeAnswers;
  private readonly streams: FakeStreams;
  private readonly limits = new FakeRateLimits();
  private readonly now: () => number;
  private historyScopes: boolean;
  private readonly scripted = new Map<string, ScriptedAnswer>();

  /** Where the fake is reachable: SLACK_API_URL is `${origin}/api/`, response_urls start with it. */
  readonly origin: string;
  /** Work Objects it took: flexpanes presented (`entity.presentDetails`) and entities unfurled (`chat.unfurl`). */
  readonly workObjects = new FakeWorkObjects();

  constructor(options: string | FakeSlackOptions = {}) {
    const given = typeof options === "string" ? { origin: options } : options;
    this.origin = given.origin ?? FAKE_SLACK_DEFAULT_ORIGIN;
    // Read on each call, so a test clock that replaces Date.now later still rules the fake.
    this.now = given.now ?? (() => Date.now());
    this.streams = new FakeStreams(this.now, given);
    this.answers = new FakeAnswers(this.origin, this.streams, this.now);
    this.historyScopes = given.historyScopes ?? true;
    if (given.enforceTiers) this.enforceTiers(given.enforceTiers === true ? SLACK_TIERS : given.enforceTiers);
  }

  /** The value for the Worker's SLACK_API_URL. */
  get apiUrl(): string {
    return `${this.origin}/api/`;
  }

  responseUrl(id: string): string {
    return `${this.origin}/hooks/commands/${id}`;
  }

  /** Calls the fake is answering now, and the most it was ever answering at once (a caller's connection limit). */
  inFlight = 0;
  mostInFlight = 0;

  /** `fetch`-compatible: install it as `globalThis.fetch` (or call it) for requests to the fake. */
  readonly fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
    try {
      return await this.handle(request, init?.signal ?? (input instanceof Request ? input.signal : null));
    } finally {
      this.inFlight--;
    }
  };

  /** Enforces Slack's limit on chat.postMessage per channel, as a token bucket: `burst` posts at once, refilled at
   * `perSecond`; a post over it is answered 429 with Retry-After (whole seconds). */
  limitPostsPerChannel(limit: PostLimit): this {
    this.limits.limitPostsPerChannel(limit);
    return this;
  }

  /** Enforces calls per workspace (token) per minute, by method (Slack's tiers unless told), and
   * 1 chat.postMessage a second per channel unless limitPostsPerChannel says otherwise. */
  enforceTiers(tiers: TierLimits = SLACK_TIERS): this {
    this.limits.enforceTiers(tiers);
    return this;
  }

  /** Changes how long a stream stays open and how long its text may grow; open streams too. */
  setStreamLimits(limits: Partial<FakeStreamLimits>): this {
    this.streams.setLimits(limits);
    return this;
  }

  /** Grants or withdraws the history scopes: without them, history reads are refused `missing_scope`. */
  setHistoryScopes(granted: boolean): this {
    this.historyScopes = granted;
    return this;
  }

  /** Caps a history read's page (Slack caps apps outside the Marketplace at 15 messages). */
  setHistoryPageLimit(limit: number): this {
    this.answers.historyPageLimit = limit;
    return this;
  }

  /** Calls answered HTTP 429, by a limit or a scripted fault. */
  rateLimited(): RecordedCall[] {
    return this.calls.filter((call) => call.status === 429);
  }

  /** Answers the next `times` matching calls with `fault`; later calls succeed again. */
  fail(match: CallMatch, fault: Fault, times = 1): this {
    this.faults.add(match, fault, times);
    return this;
  }

  /**
   * Answers every later call of `method` with `answer` (a body, or one made from the call's body)
   * instead of the fake's own, until `answerWith(method)` takes it back; faults still come first.
   */
  answerWith(method: string, answer?: ScriptedAnswer): this {
    if (answer === undefined) this.scripted.delete(method);
    else this.scripted.set(method, answer);
    return this;
  }

  /** Answers the next call of `method` with `fault`. */
  failNext(method: string, fault: Fault): this {
    return this.fail({ method }, fault);
  }

  /** Makes `code` redeemable once by oauth.v2.access, answering `access` (Slack's install answer). */
  issueCode(code: string, access: Record<string, unknown>): this {
    this.oauth.issueCode(code, access);
    return this;
  }

  /** oauth.v2.access calls that were refreshes. */
  refreshCalls(): RecordedCall[] {
    return this.callsTo("oauth.v2.access").filter((call) => call.body.grant_type === "refresh_token");
  }

  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Messages the app posted to `channel`, or to its thread `threadTs` (oldest first), with their final text and state. */
  messagesIn(channel: string, threadTs?: string): FakeMessage[] {
    return this.answers.messagesIn(channel, threadTs);
  }

  /** One message the app posted or streamed: its text as Slack shows it, blocks, stream state. */
  message(channel: string, ts: string): FakeMessage | undefined {
    return this.answers.message(channel, ts);
  }

  /** Forgets the messages posted so far (a run of minutes keeps memory flat); an update of one is still answered ok. */
  forgetMessages(): this {
    this.answers.forget();
    return this;
  }

  /**
   * Posts `message` (`text`, `thread_ts`, `metadata`, …) in `channel` as another app (`{ bot_id, app_id, user }`) or
   * a person (`{ user }`); no call is recorded, the app's reads show it as Slack shows others' messages. Returns its `ts`.
   */
  postAs(author: MessageAuthor, channel: string, message: Record<string, unknown>): string {
    return String(this.answers.answer("chat.postMessage", { ...message, channel }, author).ts);
  }

  /**
   * The newest message the app posted with buttons (a durable wait's question), in `place` (a channel, a thread)
   * when told; waits up to `timeoutMs` for one. Click it with SlackSimulator's `click`.
   */
  question(place: QuestionPlace = {}, timeoutMs = 5_000): Promise<PostedQuestion> {
    return waitForQuestion(() => this.answers.posted(), place, timeoutMs);
  }

  /** Resolves with the first recorded call matching `predicate` (already made, or the next one). */
  waitForCall(predicate: (call: RecordedCall) => boolean = () => true): Promise<RecordedCall> {
    return this.recorded.waitForCall(predicate);
  }

  /** The first call of `method` matching `predicate`; rejects naming the calls seen after `timeoutMs`. */
  waitFor(method: string, predicate: (call: RecordedCall) => boolean = () => true, timeoutMs = 5_000): Promise<RecordedCall> {
    return this.recorded.waitFor(method, predicate, timeoutMs);
  }

  serves(url: string): boolean {
    return url.startsWith(`${this.origin}/`);
  }

  /** Answers `request`; `played`, when given, is this call's fault instead of a scripted one (a rate limit still comes first). */
  async handle(request: Request, signal?: AbortSignal | null, played?: Fault): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/oauth/v2/authorize") return this.oauth.consent(url);
    const { method, body, token, contentType } = await readRequest(request);
    const overLimit = this.limits.retryAfter(method, token ?? String(body.token ?? ""), body.channel, this.now());
    const fault: Fault | undefined =
      overLimit !== undefined ? { status: 429, retryAfter: overLimit } : (played ?? this.faults.take(method, body));
    this.recorded.record({
      method,
      url: request.url,
      token,
      contentType,
      body,
      at: this.now(),
      outcome: fault ? JSON.stringify(fault) : "ok",
      status: statusOf(fault),
      applied: appliedUnder(fault),
    });

    return fault ? playFault(fault, signal, () => this.success(method, body)) : this.success(method, body);
  }

  private success(method: string, body: Record<string, unknown>): Response {
    const scripted = this.scripted.get(method);
    if (scripted) return Response.json(typeof scripted === "function" ? scripted(body) : scripted);
    if (method === "oauth.v2.access") return this.oauth.access(body);
    if (method === "response_url") return new Response("ok", { status: 200 });
    if (method === "file_upload") return new Response(`OK - ${String(body.bytes).length}`, { status: 200 });
    const needed = "channels:history,groups:history,im:history,mpim:history";
    if (HISTORY_READS.has(method) && !this.historyScopes) return Response.json({ ok: false, error: "missing_scope", needed });
    const searched = searchAnswer(method, body, () => this.answers.posted(), this.origin);
    return Response.json(searched ?? this.workObjects.answer(method, body) ?? this.answers.answer(method, body));
  }
}
