import { retryAfterMs } from "../platform/retryAfter";
/**
 * A deliberately small Slack Web API client: one fetch per call, no retries of its own (the
 * outbox owns retries), and it reports what classification needs — HTTP status, Slack's
 * `ok`/`error`, and `Retry-After` — instead of throwing on `ok: false`.
 */

export interface CallResult {
  /** HTTP status of the answer. */
  status: number;
  /** 2xx and Slack did not say `ok: false`. */
  ok: boolean;
  /** Slack's error code (`channel_not_found`, `ratelimited`, …) or the response text. */
  error?: string;
  /** From `Retry-After` (seconds), when Slack sent one. */
  retryAfterMs?: number;
  /** Parsed JSON answer, when there was one (e.g. the `ts` of a posted message). */
  body?: Record<string, unknown>;
}

/**
 * Told once a call's response headers have arrived: since Cloudflare's relaxed connection limiting
 * (2026-04-09) a connection counts against the six only until then, so the shard's slot is freed
 * there, while the body is still read (platform/outboundCalls.ts).
 */
export type HeadersArrived = () => void;

/** The answer, once its headers are told to `answered`. */
async function answerOf(sent: Promise<Response>, answered: HeadersArrived | undefined): Promise<CallResult> {
  const response = await sent;
  answered?.();
  return toCallResult(response);
}

async function toCallResult(response: Response): Promise<CallResult> {
  const text = await response.text();
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    // response_url answers plain text ("ok", "expired_url"); Slack's 5xx pages are HTML.
  }
  const ok = response.ok && body?.ok !== false;
  const error = typeof body?.error === "string" ? body.error : ok ? undefined : text.slice(0, 200);
  // Only a refusal (a 429, a 5xx, `ok: false`) is asked when to come back: an answer that delivered reads no header.
  return { status: response.status, ok, error, retryAfterMs: ok ? undefined : retryAfterMs(response), body };
}

function postJson(url: string, body: unknown, signal: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(body),
    signal,
  });
}

/** A form body's media type, as URLSearchParams would send it. */
const FORM = "application/x-www-form-urlencoded;charset=UTF-8";

/** One `key=value` of a form. encodeURIComponent refuses a lone surrogate: that field is encoded as URLSearchParams does (U+FFFD). */
function formField(key: string, value: string): string {
  try {
    return `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
  } catch {
    return new URLSearchParams([[key, value]]).toString();
  }
}

/**
 * Web API arguments as `application/x-www-form-urlencoded`, the one encoding every method takes:
 * JSON bodies are accepted by most *write* methods only (read methods such as `users.info` and
 * `files.getUploadURLExternal` reject them). Objects and arrays (`blocks`, `view`) go as JSON
 * text, as Slack expects in a form; absent values are left out. Joined as text: a URLSearchParams
 * crosses into the runtime on every field, on every call of every row.
 */
export function formEncode(args: Record<string, unknown>): string {
  let form = "";
  for (const key of Object.keys(args)) {
    const value = args[key];
    if (value === undefined || value === null) continue;
    form += `${form === "" ? "" : "&"}${formField(key, typeof value === "object" ? JSON.stringify(value) : String(value))}`;
  }
  return form;
}

/**
 * Calls `method` with the given credentials (`Bearer {bot token}`, or `Basic …` for
 * oauth.v2.access). Throws only for network errors and timeouts (via `signal`).
 */
export async function callWebApi(options: {
  apiUrl: string;
  authorization: string;
  method: string;
  body: Record<string, unknown>;
  signal: AbortSignal;
  answered?: HeadersArrived;
}): Promise<CallResult> {
  // Joined as text (fetch parses it once): the base is a URL setting, the method a name.
  const url = `${options.apiUrl}${options.apiUrl.endsWith("/") ? "" : "/"}${options.method}`;
  const sent = fetch(url, {
    method: "POST",
    headers: { authorization: options.authorization, "content-type": FORM },
    body: formEncode(options.body),
    signal: options.signal,
  });
  return answerOf(sent, options.answered);
}

/** POSTs a file's bytes to the `upload_url` files.getUploadURLExternal gave (no token: the URL is the credential). */
export function postFileBytes(
  url: string,
  bytes: Uint8Array,
  signal: AbortSignal,
  answered?: HeadersArrived,
): Promise<CallResult> {
  return answerOf(fetch(url, { method: "POST", body: bytes, signal }), answered);
}

/** Answers an interaction's or slash command's `response_url` (valid 30 minutes, 5 uses). */
export function postToResponseUrl(
  url: string,
  body: Record<string, unknown>,
  signal: AbortSignal,
  answered?: HeadersArrived,
): Promise<CallResult> {
  return answerOf(postJson(url, body, signal), answered);
}
