import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { appliedUnder } from "../../src/testing/fakeFaults";
import { FakeSlack, type FakeSlackOptions, type Fault } from "../../src/testing/fakeSlack";
import { highResNow } from "../load/clock";

/** A call as the server saw it: the fake's record plus a high-resolution arrival time. */
export interface ServedCall {
  method: string;
  channel?: string;
  threadTs?: string;
  /** The `ts` the call targets (chat.update) and the `ts` the fake answered with (chat.postMessage). */
  ts?: string;
  answerTs?: string;
  /** An alert's text (method `alert`): printed by the demo's fake, as a receiver would show it. */
  text?: string;
  /** What the fake answered: "ok" or the fault played (see FakeSlack). */
  outcome: string;
  /** Whether Slack would have performed it: answered ok, or its answer alone was lost. */
  applied: boolean;
  /** performance.timeOrigin + performance.now(), comparable across this machine's processes. */
  receivedAt: number;
}

export interface FakeSlackServer {
  fake: FakeSlack;
  origin: string;
  calls: ServedCall[];
  /** History reads (conversations.replies / .history) since the server started, never cleared: lookups of uncertain posts. */
  historyReads(): number;
  /** Forgets every call so far (between scenarios, to bound memory). */
  clear(): void;
  close(): Promise<void>;
}

export interface FakeSlackServerOptions {
  /** Port on 127.0.0.1; a free one when omitted. */
  port?: number;
  /** Called with every call once answered (e.g. to print it). */
  onCall?: (call: ServedCall) => void;
  /** Picks a fault for a call before the fake handles it (e.g. randomFaults); none when omitted. */
  faultFor?: (call: { method: string; channel?: string }) => Fault | undefined;
  /** A hang never outlives this, so a run always ends (the caller's own timeout normally ends it first). */
  maxHangMs?: number;
  /** The fake's stream limits and tiers (its origin is the server's). */
  fake?: Omit<FakeSlackOptions, "origin">;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The fields that tie a call to its event: JSON bodies (ours) or form bodies (slack-edge's client). */
function callFields(text: string): { channel?: string; threadTs?: string; ts?: string } {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(text) as Record<string, unknown>;
  } catch {
    fields = Object.fromEntries(new URLSearchParams(text));
  }
  // A relayed Events API request carries its message in `event`: its channel and ts name the thread.
  const event = typeof fields.event === "object" && fields.event !== null ? (fields.event as Record<string, unknown>) : {};
  const field = (name: string) => {
    const value = fields[name] ?? event[name];
    return typeof value === "string" ? value : undefined;
  };
  return { channel: field("channel"), threadTs: field("thread_ts"), ts: field("ts") };
}

/**
 * The fake's /relay, as an existing Bolt backend answers what relay mode forwards: a slash
 * command with an ephemeral reply (relay mode passes it to Slack as the ack when it comes within
 * RELAY_SYNC_MS), anything else with an empty 200.
 */
function backendAnswer(text: string): Response {
  const command = new URLSearchParams(text).get("command");
  if (!command) return new Response(null, { status: 200 });
  const reply = { response_type: "ephemeral", text: `The backend got ${command} ${new URLSearchParams(text).get("text") ?? ""}` };
  return Response.json(reply);
}

function answerTsOf(text: string): string | undefined {
  try {
    const ts = (JSON.parse(text) as { ts?: unknown }).ts;
    return typeof ts === "string" ? ts : undefined;
  } catch {
    return undefined;
  }
}

/** "ok" when Slack would have performed the call (2xx and not `ok: false`), else what was answered. */
function outcomeOf(status: number, text: string): string {
  let error: string | undefined;
  try {
    const body = JSON.parse(text) as { ok?: boolean; error?: string };
    if (body.ok === false) error = body.error ?? "ok:false";
  } catch {
    // response_url answers plain text.
  }
  if (status >= 200 && status < 300 && error === undefined) return "ok";
  return `${status}${error ? ` ${error}` : ""}`;
}

/**
 * chat.update's `markdown_text` as the `text` the fake shows (it reads only `text`), as Slack shows
 * it: a streamed answer finalised by chat.update must read back with that text.
 */
function updateShowingMarkdown(path: string, text: string): string {
  if (!path.endsWith("/chat.update") || text.startsWith("{")) return text;
  const form = new URLSearchParams(text);
  const markdown = form.get("markdown_text");
  if (markdown === null || form.has("text")) return text;
  form.set("text", markdown);
  return form.toString();
}

/**
 * Serves the test kit's fake Slack (src/testing/fakeSlack.ts) on 127.0.0.1 for the bench, chaos and
 * the demo: every call recorded, scripted and random faults played, hangs ended when the caller hangs up.
 */
export async function startFakeSlackServer(options: FakeSlackServerOptions = {}): Promise<FakeSlackServer> {
  const calls: ServedCall[] = [];
  let fake: FakeSlack | undefined;
  let historyReads = 0;
  const record = (call: ServedCall) => {
    if (call.method === "conversations.replies" || call.method === "conversations.history") historyReads++;
    calls.push(call);
    options.onCall?.(call);
  };

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = highResNow();
    const text = updateShowingMarkdown(request.url ?? "", await readBody(request));
    const url = new URL(request.url ?? "/", fake!.origin);
    const method = url.pathname.startsWith("/api/")
      ? url.pathname.slice(5)
      : url.pathname === "/oauth/v2/authorize"
        ? "oauth.authorize"
        : url.pathname === "/relay"
          ? "relay"
          : url.pathname === "/alerts"
            ? "alert"
            : "response_url";
    const fields = callFields(text);
    const { channel } = fields;
    const fault = options.faultFor?.({ method, channel });
    const hangUp = new AbortController();
    response.on("close", () => hangUp.abort());
    const cap = setTimeout(() => hangUp.abort(), options.maxHangMs ?? 30_000);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name] = value;
    try {
      const answer =
        method === "relay"
          ? backendAnswer(text)
          : await fake!.handle(new Request(url, { method: "POST", headers, body: text }), hangUp.signal, fault);
      const answerText = await answer.text();
      const alert = method === "alert" ? { text: (JSON.parse(text) as { text?: string }).text } : {};
      const outcome = outcomeOf(answer.status, answerText);
      record({
        method,
        ...fields,
        ...alert,
        answerTs: answerTsOf(answerText),
        outcome,
        applied: outcome === "ok" || (fault !== undefined && appliedUnder(fault)),
        receivedAt,
      });
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      response.end(answerText);
    } catch {
      // A scripted reset, or a hang the caller abandoned: drop the connection like a dead peer.
      record({
        method,
        ...fields,
        outcome: fault ? JSON.stringify(fault) : "reset",
        applied: appliedUnder(fault) && fault !== undefined,
        receivedAt,
      });
      request.socket.destroy();
    } finally {
      clearTimeout(cap);
    }
  }

  const server: Server = createServer((request, response) => void serve(request, response));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ready) => server.listen(options.port ?? 0, "127.0.0.1", ready));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake = new FakeSlack({ ...options.fake, origin });
  return {
    fake,
    origin,
    calls,
    historyReads: () => historyReads,
    clear: () => {
      calls.length = 0;
      fake!.calls.length = 0;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
