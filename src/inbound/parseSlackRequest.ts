import { parseEventsApi } from "./parseEventsApi";
import { parseForm } from "./parseForm";
import type { Parsed } from "./types";

export interface DeliveryHeaders {
  contentType: string | null;
  retryNum: string | null;
  retryReason: string | null;
  /** `x-slack-request-timestamp` (signed): part of the key of an interaction that has no id. */
  timestamp?: string | null;
}

/**
 * Turns a verified body into what the edge acts on. All three surfaces share one Request URL,
 * as in Bolt: JSON is the Events API, form-encoded is a slash command or interactivity.
 * Throws MalformedPayload for anything signed but not understandable. With `relayAll` (relay
 * mode), what the coordinator itself never acts on — `app_rate_limited`, `block_suggestion`,
 * envelope and interaction types it does not know — is an inbound too, so it is forwarded.
 */
export function parseSlackRequest(body: string, headers: DeliveryHeaders, relayAll = false): Parsed {
  const isJson = headers.contentType?.toLowerCase().includes("application/json") ?? body.trimStart().startsWith("{");
  const parsed = isJson ? parseEventsApi(body, relayAll) : parseForm(body, relayAll, headers.timestamp);
  if (parsed.kind !== "inbound") return parsed;

  const retryNum = Number(headers.retryNum);
  if (headers.retryNum !== null && Number.isInteger(retryNum)) parsed.inbound.retryNum = retryNum;
  if (headers.retryReason) parsed.inbound.retryReason = headers.retryReason;
  return parsed;
}
