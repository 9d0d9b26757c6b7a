import { parseEventsApi } from "./parseEventsApi";
import { parseForm } from "./parseForm";
import type { Parsed } from "./types";

export interface DeliveryHeaders {
  contentType: string | null;
  retryNum: string | null;
  retryReason: string | null;
}

/**
 * Turns a verified body into what the edge acts on. All three surfaces share one Request URL,
 * as in Bolt: JSON is the Events API, form-encoded is a slash command or interactivity.
 * Throws MalformedPayload for anything signed but not understandable.
 */
export function parseSlackRequest(body: string, headers: DeliveryHeaders): Parsed {
  const isJson = headers.contentType?.toLowerCase().includes("application/json") ?? body.trimStart().startsWith("{");
  const parsed = isJson ? parseEventsApi(body) : parseForm(body);
  if (parsed.kind !== "inbound") return parsed;

  const retryNum = Number(headers.retryNum);
  if (headers.retryNum !== null && Number.isInteger(retryNum)) parsed.inbound.retryNum = retryNum;
  if (headers.retryReason) parsed.inbound.retryReason = headers.retryReason;
  return parsed;
}
