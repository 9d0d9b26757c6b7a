import type { Inbound } from "../../inbound/types";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null;

/**
 * The `action_token` of a run's delivery, when a person's message started it: Slack puts one in
 * `message` events (`message.im`, `message.mpim`, `message.groups`, `message.channels` when the app
 * is mentioned) and in `app_mention` ("Using the action_token",
 * https://docs.slack.dev/apis/web-api/real-time-search-api/#action-token). Slack's own sample reads
 * it as `event.action_token` (https://docs.slack.dev/ai/agent-context-management); a user's message
 * in an assistant thread carries it in `event.assistant_thread.action_token`. Both are read.
 * Undefined for any other delivery (a command, a click, a timer's run): there is none to pass.
 */
export function actionTokenOf(inbound: Inbound): string | undefined {
  if (inbound.kind !== "event") return undefined;
  const event = inbound.payload.event;
  if (!isObject(event) || (event.type !== "message" && event.type !== "app_mention")) return undefined;
  const nested = isObject(event.assistant_thread) ? event.assistant_thread.action_token : undefined;
  const token = event.action_token ?? nested;
  return typeof token === "string" && token !== "" ? token : undefined;
}
