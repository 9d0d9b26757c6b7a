import { channelOf } from "../../inbound/channelOf";
import { eventConversation } from "../../inbound/conversation";
import { isObject } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";
import { HandlerMisuse } from "../../platform/errors";
import type { SlackWebClient } from "../../slack/client";
import type { RespondArguments, RunArgs, SayArguments } from "../listeners";

type Json = Record<string, unknown>;

const asMessage = (message: string | SayArguments | RespondArguments): Json =>
  typeof message === "string" ? { text: message } : { ...message };

/** How an operator reading a parked row recognises the delivery: `team_join event`, `view_submission`. */
function described(inbound: Inbound): string {
  return inbound.kind === "event" ? `${inbound.type} event` : inbound.type;
}

/**
 * A run's `say` and `respond`. Used where the delivery has nothing to reply in, they throw
 * HandlerMisuse — parked on the first attempt, since no retry gives a delivery a channel.
 */
export function sayAndRespond(inbound: Inbound, client: SlackWebClient): Pick<RunArgs, "say" | "respond"> {
  const channel = channelOf(inbound);
  // An assistant thread's events are replied to in that thread, not beside it in the DM.
  const event = isObject(inbound.payload.event) ? inbound.payload.event : {};
  const threadTs = isObject(event.assistant_thread)
    ? eventConversation(inbound.teamId ?? inbound.workspace, event)?.threadTs
    : undefined;
  return {
    respond: async (message) => {
      const url = typeof inbound.payload.response_url === "string" ? inbound.payload.response_url : undefined;
      if (!url) {
        const instead = channel ? "say() or client.chat.postMessage({ channel, … })" : "client.chat.postMessage({ channel, … })";
        throw new HandlerMisuse(
          `respond() needs a response_url, and this ${described(inbound)} has none (slash commands and message interactions carry one): use ${instead}`,
        );
      }
      // The client applies the response_url's origin allow-list, 30 minutes and 5 uses.
      await client.respond(url, asMessage(message));
    },
    say: async (message) => {
      if (!channel)
        throw new HandlerMisuse(
          `say() needs a channel, and this ${described(inbound)} has none: use client.chat.postMessage({ channel, … }) with a channel you choose (a user id posts in the app's DM with that user)`,
        );
      const inThread = threadTs === undefined ? {} : { thread_ts: threadTs };
      return client.call<{ ts: string; channel: string }>("chat.postMessage", { channel, ...inThread, ...asMessage(message) });
    },
  };
}
