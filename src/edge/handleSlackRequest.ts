import { tallyAck } from "../alerts/ackTally";
import { noticeAppRateLimited } from "../alerts/appRateLimitedNotice";
import type { SlackApp } from "../app/contract";
import { optionsLoadAck } from "../app/listeners";
import { appRateLimitedOf } from "../inbound/parseEventsApi";
import { parseSlackRequest } from "../inbound/parseSlackRequest";
import type { RawRequest } from "../inbound/types";
import { toBase64 } from "../platform/base64";
import { InvalidSetting, InvalidSignature, Overloaded, Rejection } from "../platform/errors";
import { describeError, type LogFields, log } from "../platform/log";
import { readRawBody } from "../platform/readRawBody";
import { inSpan } from "../platform/spans";
import { validTraceparent } from "../relay/traceparent";
import { waitForBackend } from "../relay/waitForBackend";
import { recordInbound } from "../routing/recordInbound";
import type { CoordinatorEnv } from "../rpc/env";
import { edgeSettings, oauthMode, relayMode } from "../settings";
import { assertFreshTimestamp, signatureBytes, verifySignature } from "../slack/verifySignature";
import type { Verification } from "../watch/ackWindow";
import { answerOptionsLoad } from "./answerOptionsLoad";

const lenientDecoder = new TextDecoder();
// ignoreBOM: a leading BOM stays in the text, so the text encodes back to the same bytes.
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body as text, decoded once: exactly its bytes when they are UTF-8 (Slack's always are). */
interface DecodedBody {
  text: string;
  utf8: boolean;
}

function decodeBody(body: Uint8Array): DecodedBody {
  try {
    return { text: strictDecoder.decode(body), utf8: true };
  } catch {
    return { text: lenientDecoder.decode(body), utf8: false };
  }
}

/** What is parsed: the text as a default TextDecoder gives it (a leading BOM dropped). */
const parseableText = ({ text, utf8 }: DecodedBody) => (utf8 && text.startsWith("\uFEFF") ? text.slice(1) : text);

/** The body byte for byte, for relay mode: the text when it is UTF-8, else base64. */
function rawRequestOf(
  body: Uint8Array,
  decoded: DecodedBody,
  contentType: string | null,
  traceparent: string | null,
): RawRequest {
  const type = contentType ?? "application/octet-stream";
  const raw: RawRequest = decoded.utf8
    ? { body: decoded.text, contentType: type }
    : { body: toBase64(body), encoding: "base64", contentType: type };
  // A caller's W3C trace goes on to the backend (relay/traceparent.ts); a malformed one is dropped.
  const trace = validTraceparent(traceparent);
  if (trace) raw.traceparent = trace;
  return raw;
}

/** Receives one Slack request, verified, parsed and handed to recordInbound: its ack — or a Rejection, thrown. */
async function receive(
  request: Request,
  env: CoordinatorEnv,
  app: SlackApp,
  facts: LogFields,
  arrivedAt: number,
  ctx: Pick<ExecutionContext, "waitUntil">,
): Promise<Response> {
  const { signingSecrets, ackBudgetMs } = edgeSettings(env);
  // OAuth mode that cannot work safely (no TOKEN_ENCRYPTION_KEY, …) is refused before anything else.
  oauthMode(env);
  const relay = relayMode(env);
  const timestamp = request.headers.get("x-slack-request-timestamp");
  const signature = request.headers.get("x-slack-signature");
  if (!timestamp || !signature) throw new InvalidSignature("missing Slack signature headers");
  const nowSeconds = Math.floor(Date.now() / 1000);
  // Stale or garbled timestamps are refused before up to 1 MiB of body is read.
  assertFreshTimestamp(timestamp, nowSeconds);
  const body = await readRawBody(request);
  // From here a refusal looks like Slack's (unless the signature is garbled): what a changed secret gives Slack.
  if (signatureBytes(signature)) facts.verification = "mismatch";
  // Before the body is trusted nothing names the event: the span has no ids.
  await inSpan("verify", {}, () => verifySignature({ secrets: signingSecrets, timestamp, signature, body, nowSeconds }));
  facts.verification = "verified";

  const decoded = decodeBody(body);
  const headers = {
    contentType: request.headers.get("content-type"),
    retryNum: request.headers.get("x-slack-retry-num"),
    retryReason: request.headers.get("x-slack-retry-reason"),
    timestamp,
  };
  // Relay mode forwards what the coordinator itself would not record (block_suggestion, …) too.
  const parsed = parseSlackRequest(parseableText(decoded), headers, relay !== null);
  switch (parsed.kind) {
    case "url_verification":
      facts.outcome = "url_verification";
      return Response.json({ challenge: parsed.challenge });
    case "ssl_check":
      facts.outcome = "ssl_check";
      return new Response(null, { status: 200 });
    case "ignored":
      facts.outcome = `ignored: ${parsed.reason}`;
      return new Response(null, { status: 200 });
    case "app_rate_limited":
      facts.outcome = "app_rate_limited";
      noticeAppRateLimited({ workspace: parsed.workspace, minute: parsed.minute }, env, ctx);
      return new Response(null, { status: 200 });
  }

  const { inbound } = parsed;
  // An options load is answered here, read first or acked purely: nothing to record, no shard to wait for.
  const loaded = await answerOptionsLoad(app, inbound, env as unknown as Record<string, unknown>, arrivedAt + ackBudgetMs, facts);
  if (loaded) return Response.json(loaded);
  const options = optionsLoadAck(app, inbound);
  if (options) {
    facts.outcome = "options";
    return Response.json(options);
  }
  // Relay mode forwards it like anything else; the watch hears of it all the same.
  const limited = inbound.type === "app_rate_limited" ? appRateLimitedOf(inbound.payload) : undefined;
  if (limited) noticeAppRateLimited(limited, env, ctx);
  inbound.receivedAt = Date.now();
  // Relay mode forwards the request as Slack sent it, so it travels with the delivery.
  if (relay) inbound.raw = rawRequestOf(body, decoded, request.headers.get("content-type"), request.headers.get("traceparent"));
  // `event_id` as every line and span of the delivery names it; `dedupeKey` kept for queries written before it.
  Object.assign(facts, {
    event_id: inbound.dedupeKey,
    dedupeKey: inbound.dedupeKey,
    type: inbound.type,
    retryNum: inbound.retryNum,
  });
  const recorded = await inSpan("record", { event_id: inbound.dedupeKey, workspace: inbound.workspace, type: inbound.type }, () =>
    recordInbound(env, app, inbound),
  );
  if (recorded.verdict === "ignored") {
    facts.outcome = `ignored: ${recorded.reason}`;
    return new Response(null, { status: 200 });
  }
  Object.assign(facts, {
    outcome: recorded.verdict,
    shard: recorded.shard,
    ingestAttempts: recorded.ingestAttempts,
    enqueued: recorded.enqueued,
  });
  if (recorded.ackBody) return Response.json(recorded.ackBody);
  if (recorded.awaitsBackend && relay) {
    // The ack leaves within RELAY_SYNC_MS of the request's arrival, whatever the backend does.
    const backend = await waitForBackend(env.SHARD, recorded.shard, inbound.dedupeKey, arrivedAt + relay.syncMs);
    // `backendAnswer` is a field of the `slack request` log line, kept though the code says backend response.
    facts.backendAnswer = backend !== null;
    if (backend) return new Response(backend.body, { status: 200, headers: { "content-type": backend.contentType } });
  }
  return new Response(null, { status: 200 });
}

/**
 * Whether the guard may count an ack as given to Slack: a verified request's, or a configuration
 * error's (any request gets it, Slack's too); a 401 after a Slack-shaped signature is a mismatch.
 */
function verificationOf(facts: LogFields, status: number): Verification {
  if (facts.verification === "verified" || facts.setting !== undefined) return "verified";
  return facts.verification === "mismatch" && status === 401 ? "mismatch" : "unverified";
}

/**
 * The Slack Request URL: Events API, slash commands and interactivity. Logs one JSON line per
 * request with its status, dedupe key, shard and ack milliseconds.
 */
export async function handleSlackRequest(
  request: Request,
  env: CoordinatorEnv,
  app: SlackApp,
  ctx: Pick<ExecutionContext, "waitUntil">,
): Promise<Response> {
  const started = Date.now();
  const facts: LogFields = {};
  let response: Response;
  let overloaded = false;
  try {
    response = await receive(request, env, app, facts, started, ctx);
  } catch (error) {
    // Refused by an overloaded shard: counted apart from a record that failed (watch/ackWindow.ts).
    overloaded = error instanceof Overloaded;
    if (error instanceof InvalidSetting) {
      facts.setting = error.setting;
      facts.error = describeError(error);
      // Said to be configuration, so nobody hunts a bug; which setting is in the log line only.
      response = new Response("configuration error (see the Worker's log)", { status: 500 });
    } else if (error instanceof Rejection) {
      facts.outcome ??= error.message;
      response = error.toResponse();
    } else {
      facts.error = describeError(error);
      response = new Response("internal error", { status: 500 });
    }
  }
  // The guard against Slack's auto-disable counts every ack to what claims to be Slack (a
  // request without Slack's signature headers is a scanner, which Slack's own count ignores),
  // without a write per request.
  if (request.headers.has("x-slack-signature") && request.headers.has("x-slack-request-timestamp"))
    tallyAck(response.status, verificationOf(facts, response.status), env, ctx, overloaded);
  if (!quietAck(response.status, facts, env))
    log(response.status >= 500 ? "error" : "info", "slack request", {
      status: response.status,
      ...facts,
      ackMs: Date.now() - started,
    });
  return response;
}

/** A recorded delivery's 2xx ack, logged only with LOG_ACKED_REQUESTS (a line per event costs CPU and is billed). */
function quietAck(status: number, facts: LogFields, env: CoordinatorEnv): boolean {
  if (status >= 300 || (facts.outcome !== "accepted" && facts.outcome !== "duplicate")) return false;
  try {
    return !edgeSettings(env).logAcked;
  } catch {
    return false;
  }
}
