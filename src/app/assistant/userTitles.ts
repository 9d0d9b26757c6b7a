import { eventConversation } from "../../inbound/conversation";
import { optionalString } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";
import type { ThreadContextStore } from "../contract";
import { ownBotUser } from "../listeners";
import { eventTimeOf } from "./threadContext";

/** What `setTitle` takes beside the title. */
export interface SetTitleOptions {
  /** Renames the thread even when its user chose its title (`agent_session_title_changed`); by default such a title is left alone. */
  overwrite?: boolean;
}

/**
 * The first part of a `titleChanged` run (`agent_session_title_changed`): the title its user chose,
 * kept for the thread before the handler runs, ordered by the event's time as a thread's context
 * is (a retry keeps it again; an older rename's retry never undoes a newer one). A rename Slack
 * reports as the app's own bot user's is no user's choice and is not kept.
 */
export function keepUserTitle(inbound: Inbound, event: Record<string, unknown>, store: ThreadContextStore | undefined): void {
  const conversation = eventConversation(inbound.teamId ?? inbound.workspace, event);
  const title = optionalString(event.title);
  if (!conversation || title === undefined || !store?.keepUserTitle) return;
  const user = optionalString(event.user);
  if (user !== undefined && user === ownBotUser(inbound)) return;
  const now = Date.now();
  store.keepUserTitle(conversation, title, { workspace: inbound.workspace, eventAt: eventTimeOf(inbound, now), savedAt: now });
}
