import type {
  AssistantDeclaration,
  CommandDeclaration,
  FunctionDeclaration,
  ListenerNeeds,
  ShortcutDeclaration,
} from "./manifestTypes";
import { AGENT_ONLY_EVENTS, ENTITY_DETAILS_REQUESTED, MESSAGE_EVENTS } from "./scopes";

/** A constraint the manifest can name: a string. A RegExp matches what only the app's own manifest can list. */
type Constraint = string | RegExp | undefined;

/**
 * The bot events of Events API types: `message` is one per conversation kind, the others their own
 * name. An event only an agent gets makes the app an agent; `app_home_opened` turns the Home tab on;
 * `entity_details_requested` turns Work Object previews on.
 */
export function eventNeeds(types: readonly string[]): ListenerNeeds {
  return {
    events: types.flatMap((type) => (type === "message" ? MESSAGE_EVENTS : [type])),
    ...(types.some((type) => AGENT_ONLY_EVENTS.includes(type)) ? { agent: true } : {}),
    ...(types.includes("app_home_opened") ? { homeTab: true } : {}),
    ...(types.includes(ENTITY_DETAILS_REQUESTED) ? { richPreviews: {} } : {}),
  };
}

/**
 * A listener's own options: `agent` (it answers as an agent: `sayStream`, `setStatus`, the stop
 * button, whatever it listens to), `scopes: "optional"` (the scopes it needs are optional,
 * `bot_optional`, and it runs only where granted).
 */
export function withListenerOptions(
  needs: ListenerNeeds,
  { agent, scopes }: { agent?: boolean; scopes?: "optional" },
): ListenerNeeds {
  return { ...needs, ...(agent ? { agent: true } : {}), ...(scopes === "optional" ? { optional: true } : {}) };
}

export function commandNeeds(name: Constraint, declaration: CommandDeclaration = {}): ListenerNeeds {
  return typeof name === "string" ? { command: { command: name, ...declaration } } : {};
}

export function shortcutNeeds(callbackId: Constraint, declaration: ShortcutDeclaration = {}): ListenerNeeds {
  return typeof callbackId === "string" ? { shortcut: { callback_id: callbackId, ...declaration } } : { interactivity: true };
}

export function functionNeeds(callbackId: Constraint, declaration?: FunctionDeclaration): ListenerNeeds {
  return {
    events: ["function_executed"],
    ...(typeof callbackId === "string" ? { function: { callback_id: callbackId, ...declaration } } : {}),
  };
}

/** The bot event each of `app.assistant`'s handlers is called for. */
const ASSISTANT_EVENTS: Record<string, string> = {
  "assistant:threadStarted": "assistant_thread_started",
  "assistant:threadContextChanged": "assistant_thread_context_changed",
  "assistant:userMessage": "message.im",
  "assistant:messagesTabOpened": "app_home_opened",
  "assistant:appContextChanged": "app_context_changed",
  "assistant:titleChanged": "agent_session_title_changed",
};

/** What one of `app.assistant`'s listeners (by its name) needs: its event, and the view (the agent view for an event only agents get). */
export function assistantNeeds(listener: string, declaration: AssistantDeclaration = {}): ListenerNeeds {
  const event = ASSISTANT_EVENTS[listener];
  const agent = event !== undefined && AGENT_ONLY_EVENTS.includes(event);
  return { ...(event ? { events: [event] } : {}), assistant: declaration, ...(agent ? { agent: true } : {}) };
}

/** Registrations that take an optional declaration before the listener: `(constraint, declaration?, listener)`. */
export function declarationAnd<D, L>(first: unknown, second: L | undefined): [D | undefined, L] {
  return second === undefined ? [undefined, first as L] : [first as D, second];
}
