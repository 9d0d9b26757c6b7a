import { isFromBot } from "../app/filters";
import type { Plan, SlackApp } from "../app/types";
import { isObject } from "../inbound/fields";
import type { Inbound } from "../inbound/types";

function planMention(inbound: Inbound): Plan {
  const event = inbound.payload.event;
  if (!isObject(event) || isFromBot(event)) return { ignore: "message from a bot" };
  const text = `Hi <@${String(event.user)}>, I got your mention.`;
  return {
    effects: [{
      name: "reply",
      effect: {
        type: "slack.api",
        method: "chat.postMessage",
        // Reply in the mention's thread (or the thread it was already in).
        body: { channel: event.channel, thread_ts: event.thread_ts ?? event.ts, text },
      },
    }],
  };
}

function planEcho(inbound: Inbound): Plan {
  const { response_url: url, text } = inbound.payload;
  if (typeof url !== "string") return { ignore: "command without response_url" };
  return {
    effects: [{ name: "echo", effect: { type: "response_url", url, body: { response_type: "ephemeral", text: String(text ?? "") } } }],
  };
}

/** The demo served by `npm start`: a thread reply to every mention, and `/echo TEXT`. */
export const exampleApp: SlackApp = {
  plan(inbound) {
    if (inbound.kind === "event" && inbound.type === "app_mention") return planMention(inbound);
    if (inbound.kind === "command" && inbound.type === "/echo") return planEcho(inbound);
    return { ignore: "no handler" };
  },
};
