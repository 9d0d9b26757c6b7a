/**
 * A fake Slack Web API (and response_url endpoint) that records every call and plays scripted
 * faults: HTTP statuses, Retry-After, `ok:false` codes, hangs and connection resets. It is a
 * plain `Request → Response` handler, so it serves mocked `fetch` in workerd tests and an
 * HTTP server on 127.0.0.1 alike.
 */

export type Fault =
  /** An HTTP error, optionally with Slack's JSON error code and Retry-After seconds. */
  | { status: number; error?: string; retryAfter?: number }
  /** HTTP 200 with `{ ok: false, error }`. */
  | { error: string }
  /** Never answers; the caller's timeout must end it. */
  | { hang: true }
  /** The connection drops: fetch rejects. */
  | { reset: true };

export interface CallMatch {
  /** Web API method (`chat.postMessage`) or `response_url`. */
  method?: string;
  channel?: string;
}

export interface RecordedCall {
  method: string;
  url: string;
  token: string | null;
  body: Record<string, unknown>;
  at: number;
  /** What the fake answered: "ok", a fault's description. */
  outcome: string;
  /** The request's content-type, as sent. */
  contentType: string | null;
}

interface Scripted {
  match: CallMatch;
  fault: Fault;
  remaining: number;
}

/**
 * A request body as Slack reads it: JSON, or a form whose JSON-looking values (`blocks`, `view`)
 * are JSON, as Slack parses them.
 */
function parseBody(text: string, contentType: string | null): Record<string, unknown> {
  if (contentType?.includes("application/json")) return JSON.parse(text) as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const looksJson = value.startsWith("{") || value.startsWith("[");
    body[key] = looksJson ? JSON.parse(value) : value;
  }
  return body;
}

export class FakeSlackApi {
  readonly calls: RecordedCall[] = [];
  private readonly scripts: Scripted[] = [];
  private readonly waiters: Array<{ predicate: (call: RecordedCall) => boolean; resolve: (call: RecordedCall) => void }> = [];
  private tsCounter = 0;
  private fileCounter = 0;
  /** oauth.v2.access: codes Slack would redeem (each once), and live refresh tokens. */
  private readonly codes = new Map<string, Record<string, unknown>>();
  private readonly refreshTokens = new Map<string, { id: string }>();
  private rotation = 0;

  /** Where the fake is reachable: SLACK_API_URL is `${origin}/api/`, response_urls start with it. */
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  get apiUrl(): string {
    return `${this.origin}/api/`;
  }

  responseUrl(id: string): string {
    return `${this.origin}/hooks/commands/${id}`;
  }

  /**
   * Enforces Slack's limit on chat.postMessage per channel, as a token bucket: `burst` posts at
   * once, refilled at `perSecond`; a post over it is answered 429 with Retry-After (whole seconds).
   */
  limitPostsPerChannel(limit: { perSecond: number; burst: number }): this {
    this.postLimit = limit;
    return this;
  }

  private postLimit?: { perSecond: number; burst: number };
  private readonly postBuckets = new Map<string, { tokens: number; at: number }>();

  /** Takes a token of the channel's bucket; returns the seconds to wait when there is none. */
  private overPostLimit(channel: string, now: number): number | undefined {
    const limit = this.postLimit;
    if (!limit) return undefined;
    const bucket = this.postBuckets.get(channel) ?? { tokens: limit.burst, at: now };
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
    bucket.at = now;
    this.postBuckets.set(channel, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
  }

  /** Answers the next `times` matching calls with `fault`; later calls succeed again. */
  fail(match: CallMatch, fault: Fault, times = 1): this {
    this.scripts.push({ match, fault, remaining: times });
    return this;
  }

  /**
   * Makes `code` redeemable once by oauth.v2.access, answering `access` (Slack's install answer).
   * With token rotation (`refresh_token` in it), each refresh answers a new pair living 12 hours.
   */
  issueCode(code: string, access: Record<string, unknown>): this {
    this.codes.set(code, access);
    if (typeof access.refresh_token === "string") {
      const owner = (access.team ?? access.enterprise) as { id?: string } | null | undefined;
      const id = String(owner?.id ?? "");
      this.refreshTokens.set(access.refresh_token, { id });
    }
    return this;
  }

  /**
   * Slack's authorize page, consenting at once (for running the install flow locally): issues a
   * code for team T0LOCAL and sends the browser back to `redirect_uri` with it and the state.
   */
  private consent(url: URL): Response {
    const redirect = url.searchParams.get("redirect_uri");
    if (!redirect)
      return new Response("fake Slack: set SLACK_REDIRECT_URI so the authorize URL carries redirect_uri", { status: 400 });
    const team = "T0LOCAL";
    const code = `fake-code-${crypto.randomUUID()}`;
    this.issueCode(code, {
      app_id: "A0LOCAL",
      access_token: `xoxb-${team}-local`,
      token_type: "bot",
      scope: url.searchParams.get("scope") ?? "",
      bot_user_id: `UB${team}`,
      team: { id: team, name: `Local team ${team}` },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: "U0LOCAL" },
    });
    const back = new URL(redirect);
    back.searchParams.set("code", code);
    back.searchParams.set("state", url.searchParams.get("state") ?? "");
    return new Response(null, { status: 302, headers: { location: back.toString() } });
  }

  /** oauth.v2.access calls that were refreshes. */
  refreshCalls(): RecordedCall[] {
    return this.callsTo("oauth.v2.access").filter((call) => call.body.grant_type === "refresh_token");
  }

  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Resolves with the first recorded call matching `predicate` (already made, or the next one). */
  waitForCall(predicate: (call: RecordedCall) => boolean = () => true): Promise<RecordedCall> {
    const made = this.calls.find(predicate);
    if (made) return Promise.resolve(made);
    return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
  }

  serves(url: string): boolean {
    return url.startsWith(`${this.origin}/`);
  }

  async handle(request: Request, signal?: AbortSignal | null): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/oauth/v2/authorize") return this.consent(url);
    // Web API methods under /api/, file uploads (files.uploadV2's second step) under /upload/,
    // anything else is a response_url.
    const method = url.pathname.startsWith("/api/")
      ? url.pathname.slice(5)
      : url.pathname.startsWith("/upload/")
        ? "file_upload"
        : "response_url";
    // Bytes, decoded here: workerd warns when .text() reads a form body.
    const text = new TextDecoder().decode(await request.arrayBuffer());
    const body = method === "file_upload" ? { bytes: text } : parseBody(text, request.headers.get("content-type"));
    const overLimit = method === "chat.postMessage" ? this.overPostLimit(String(body.channel), Date.now()) : undefined;
    const fault: Fault | undefined =
      overLimit !== undefined ? { status: 429, retryAfter: overLimit } : this.takeFault(method, body);
    const call: RecordedCall = {
      method,
      url: request.url,
      token: request.headers.get("authorization"),
      contentType: request.headers.get("content-type"),
      body,
      at: Date.now(),
      outcome: fault ? JSON.stringify(fault) : "ok",
    };
    this.record(call);

    if (!fault) return this.success(method, body);
    if ("hang" in fault) {
      return new Promise<Response>((_, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason ?? new DOMException("aborted", "AbortError")));
      });
    }
    if ("reset" in fault) throw new TypeError("Network connection lost.");
    const status = "status" in fault ? fault.status : 200;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if ("retryAfter" in fault && fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
    const error = fault.error ?? (status === 429 ? "ratelimited" : `http_${status}`);
    return new Response(JSON.stringify({ ok: false, error }), { status, headers });
  }

  private takeFault(method: string, body: Record<string, unknown>): Fault | undefined {
    const script = this.scripts.find(
      (s) =>
        s.remaining > 0 &&
        (s.match.method === undefined || s.match.method === method) &&
        (s.match.channel === undefined || s.match.channel === body.channel),
    );
    if (!script) return undefined;
    script.remaining--;
    return script.fault;
  }

  private record(call: RecordedCall): void {
    this.calls.push(call);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (waiter.predicate(call)) {
        this.waiters.splice(i, 1);
        waiter.resolve(call);
      }
    }
  }

  private oauthAccess(body: Record<string, unknown>): Response {
    if (body.grant_type === "refresh_token") {
      const live = this.refreshTokens.get(String(body.refresh_token));
      if (!live) return Response.json({ ok: false, error: "invalid_refresh_token" });
      // Slack's rotation: the refresh token is spent, a new pair replaces it.
      this.refreshTokens.delete(String(body.refresh_token));
      this.rotation++;
      const refreshToken = `xoxe-1-${live.id}-r${this.rotation}`;
      this.refreshTokens.set(refreshToken, live);
      return Response.json({
        ok: true,
        token_type: "bot",
        access_token: `xoxe.xoxb-${live.id}-r${this.rotation}`,
        refresh_token: refreshToken,
        // Slack's rotated tokens live 12 hours, whatever the install's first one had left.
        expires_in: 43_200,
      });
    }
    const access = this.codes.get(String(body.code));
    if (!access) return Response.json({ ok: false, error: "invalid_code" });
    this.codes.delete(String(body.code));
    return Response.json({ ok: true, ...access });
  }

  private success(method: string, body: Record<string, unknown>): Response {
    if (method === "oauth.v2.access") return this.oauthAccess(body);
    if (method === "response_url") return new Response("ok", { status: 200 });
    if (method === "file_upload") return new Response(`OK - ${String(body.bytes).length}`, { status: 200 });
    const answer: Record<string, unknown> = { ok: true };
    if (method === "chat.postMessage") {
      this.tsCounter++;
      answer.channel = body.channel;
      answer.ts = `${Math.floor(Date.now() / 1000)}.${String(this.tsCounter).padStart(6, "0")}`;
      answer.message = { text: body.text, ts: answer.ts };
    }
    if (method === "chat.update") Object.assign(answer, { channel: body.channel, ts: body.ts, text: body.text });
    if (method === "files.getUploadURLExternal") {
      this.fileCounter++;
      Object.assign(answer, { file_id: `F${this.fileCounter}`, upload_url: `${this.origin}/upload/F${this.fileCounter}` });
    }
    if (method === "files.completeUploadExternal") answer.files = body.files;
    if (method === "users.info") answer.user = { id: body.user, name: "tester", real_name: `Real ${String(body.user)}` };
    return Response.json(answer);
  }
}
