import type { RelayEffect } from "../app/contract";
import type { TokenKeys } from "../auth/functionTokens";
import { DeliveryError, RelayFailed, RelayRefused, SubrequestsSpent } from "../platform/errors";
import { log } from "../platform/log";
import { CallTimedOut } from "../platform/outboundCalls";
import { readRawBody } from "../platform/readRawBody";
import { retryAfterMs } from "../platform/retryAfter";
import type { BackendResponses } from "../relay/backendResponses";
import { relayBody, relayHeaders } from "../relay/relayHeaders";
import type { CallOutcome } from "../rpc/outcomes";
import type { BackendResponse } from "../rpc/shard";
import type { RelaySettings } from "../settings";
import type { EffectContext, EffectKind } from "./kind";

/** Larger backend responses are not given to Slack as the ack (the relay still counts as delivered). */
const RESPONSE_MAX_BYTES = 256 * 1024;

/** The backend's 2xx body as an ack for Slack, or undefined when there is none to give. */
async function backendResponseOf(response: Response): Promise<BackendResponse | undefined> {
  try {
    const body = new TextDecoder().decode(await readRawBody(response, RESPONSE_MAX_BYTES));
    return { contentType: response.headers.get("content-type") ?? "text/plain;charset=utf-8", body };
  } catch {
    // The log line keeps its words (docs/guides/operations.md names it): "relay answer" is the backend response.
    log("warn", "relay answer not used as the ack: larger than the cap or unreadable", { maxBytes: RESPONSE_MAX_BYTES });
    return undefined;
  }
}

/** The relay backend as alerts name it: its origin only — a path or query may carry a credential. */
function relayDestination(url: string, ok: boolean, error?: string): CallOutcome {
  return { destination: "relay", label: `the relay backend at ${new URL(url).origin}`, ok, error };
}

/**
 * `relay`: the Slack request forwarded to RELAY_URL (docs/guides/relay.md), byte for
 * byte and re-signed at each attempt. 2xx delivers; `410` or `x-slack-no-retry: 1` parks at once;
 * anything else — another status, a timeout, no connection — is retried with backoff and
 * Retry-After until RELAY_RETRY_HOURS after the delivery was recorded, then parked.
 */
export const relay: EffectKind<RelayEffect, { settings: RelaySettings | null; responses: BackendResponses; keys: TokenKeys }> = {
  type: "relay",
  deps: ({ settings, backendResponses, env }) => ({ settings: settings.relay, responses: backendResponses, keys: env }),
  async perform(effect, context, { settings, responses, keys }) {
    const { key, observe } = context;
    if (!settings) throw new RelayRefused("relay: RELAY_URL is not set (any more); set it and replay");
    // Opened before the try: a body no key opens parks the row, and is no failure of the backend's.
    const body = await relayBody(effect.request, keys);
    // Asked as the attempt starts: only an attempt the edge waits for reads the backend response for it.
    const offer = responses.wants(key) ? (given: BackendResponse) => responses.offer(key, given) : undefined;
    try {
      await relayOnce(effect, body, settings, context, offer);
      observe(relayDestination(settings.url, true));
    } catch (error) {
      // A 429 is the backend asking to slow down, which the outbox does; a spent budget sent nothing: no failure for alerts.
      if (!(error instanceof RelayFailed && error.status === 429) && !(error instanceof SubrequestsSpent))
        observe(relayDestination(settings.url, false, error instanceof Error ? error.message : String(error)));
      throw error;
    }
  },
  // One destination: after its 429 + Retry-After, every relay of the workspace waits.
  rateKey: () => "relay",
};

/** What relayOnce needs of the backend's answer, read while the call still holds its connection and its timeout. */
interface BackendAnswer {
  status: number;
  ok: boolean;
  noRetry: boolean;
  retryAfterMs?: number;
  /** The 2xx body for an edge waiting to ack with it. */
  given?: BackendResponse;
}

/** One POST to the backend; throws RelayRefused (park) or RelayFailed (retry) for anything but 2xx. */
async function relayOnce(
  effect: RelayEffect,
  body: Uint8Array,
  settings: RelaySettings,
  { attempts, recordedAt, outbound }: Pick<EffectContext, "attempts" | "recordedAt" | "outbound">,
  /** Set while the edge waits to ack a command or interaction with the backend response (relay mode's first attempt). */
  offer?: (response: BackendResponse) => void,
): Promise<void> {
  const headers = await relayHeaders(effect, body, settings, attempts + 1, Math.floor(Date.now() / 1000));
  const retryUntil = recordedAt + settings.retryHours * 3_600_000;
  let answer: BackendAnswer;
  try {
    answer = await outbound.call(settings.timeoutMs, async (signal) => {
      const response = await fetch(settings.url, { method: "POST", headers, body, signal });
      const given = response.ok && offer ? await backendResponseOf(response) : undefined;
      // A body nobody reads is let go, or its connection stays open (one being read is not).
      if (!(response.ok && offer)) await response.body?.cancel();
      const noRetry = response.headers.get("x-slack-no-retry") === "1";
      return { status: response.status, ok: response.ok, noRetry, retryAfterMs: retryAfterMs(response), given };
    });
  } catch (error) {
    // The invocation's subrequests were spent: nothing was sent, no failure of the backend's; retried in a later invocation.
    if (error instanceof DeliveryError) throw error;
    // The reason names the failure, never the URL (it may carry a credential).
    const cause = error instanceof CallTimedOut ? `no answer in ${settings.timeoutMs} ms` : "no connection";
    throw new RelayFailed(`relay: ${cause}`, retryUntil);
  }
  if (answer.ok) {
    if (answer.given) offer?.(answer.given);
    return;
  }
  if (answer.status === 410 || answer.noRetry) {
    const noRetry = answer.status === 410 ? "" : " with x-slack-no-retry";
    throw new RelayRefused(`relay: backend answered ${answer.status}${noRetry}`);
  }
  throw new RelayFailed(`relay: backend answered HTTP ${answer.status}`, retryUntil, answer.retryAfterMs, answer.status);
}
