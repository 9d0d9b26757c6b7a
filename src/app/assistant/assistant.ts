import type {
  AgentSessionTitleChangedEvent,
  AppContextChangedEvent,
  AppHomeOpenedEvent,
  AssistantThreadContextChangedEvent,
  AssistantThreadStartedEvent,
  FileShareMessageEvent,
  GenericMessageEvent,
} from "@slack/types";
import { eventOf } from "../../inbound/eventOf";
import type { Inbound } from "../../inbound/types";
import type { EnvBindings, RunTools } from "../contract";
import type { EventArgs, ListenerContext, ListenerSpec, Match, RunArgs, TurnLimits, TurnPolicy } from "../listeners";
import { type AgentViewTools, type AssistantTools, assistantTools } from "./assistantTools";
import { keepUserTitle } from "./userTitles";

/** A user's message in an assistant thread, or (agent view) the root of a new one. */
export type AssistantUserMessageEvent = (GenericMessageEvent | FileShareMessageEvent) & { channel_type: "im" };

/** A run's arguments with the assistant's tools in place of the plain `say`; `env` typed by `new Assistant<Env>()`. */
type WithTools<E, T, Env> = Omit<RunArgs<EventArgs<E>, Env>, "say"> & T;

export type AssistantThreadStartedArgs<Env = EnvBindings> = WithTools<AssistantThreadStartedEvent, AssistantTools, Env>;
export type AssistantThreadContextChangedArgs<Env = EnvBindings> = WithTools<
  AssistantThreadContextChangedEvent,
  AssistantTools,
  Env
>;
/** Bolt's `message` is there too: the same event as `event`, as in any message listener. */
export type AssistantUserMessageArgs<Env = EnvBindings> = WithTools<AssistantUserMessageEvent, AssistantTools, Env> & {
  message: AssistantUserMessageEvent;
};
export type AgentMessagesTabOpenedArgs<Env = EnvBindings> = WithTools<
  AppHomeOpenedEvent & { tab: "messages" },
  AgentViewTools,
  Env
>;
export type AgentAppContextChangedArgs<Env = EnvBindings> = WithTools<AppContextChangedEvent, AgentViewTools, Env>;
/** `event.title` the user chose (`previous_title` unless the session had none); the thread's tools, its `setTitle` included. */
export type AgentSessionTitleChangedArgs<Env = EnvBindings> = WithTools<AgentSessionTitleChangedEvent, AssistantTools, Env>;

type Handler<A> = (args: A) => void | Promise<void>;

/**
 * Bolt's assistant configuration, each handler a durable `run`: the thread's events, the user's
 * messages in it, and the agent view's events (a Messages tab opened, the user's view changed).
 */
export interface AssistantConfig<Env = EnvBindings> {
  /** `assistant_thread_started`: greet, set suggested prompts. */
  threadStarted: Handler<AssistantThreadStartedArgs<Env>>;
  /** `assistant_thread_context_changed`; by default the new context is saved (`saveThreadContext()`). */
  threadContextChanged?: Handler<AssistantThreadContextChangedArgs<Env>>;
  /** A user's message in the app's DM: in an assistant thread, or (agent view) the root of its own thread. */
  userMessage: Handler<AssistantUserMessageArgs<Env>>;
  /** Agent view: `app_home_opened` on the Messages tab. */
  messagesTabOpened?: Handler<AgentMessagesTabOpenedArgs<Env>>;
  /** Agent view: `app_context_changed`, what the user is viewing now (`event.context.entities`). */
  appContextChanged?: Handler<AgentAppContextChangedArgs<Env>>;
  /**
   * Agent view: `agent_session_title_changed`, the user renamed the thread's session. Its title is
   * kept for the thread before this runs: a later `setTitle()` leaves it alone unless `{ overwrite: true }`.
   */
  titleChanged?: Handler<AgentSessionTitleChangedArgs<Env>>;
  /** A user's message while the thread's previous one is still answered: `queue`, `interrupt`, `parallel` or `merge` (default: the app's, `queue`). */
  turns?: TurnPolicy;
  /** The oldest event (ms) its handlers answer; older ones are acked and logged (default: the app's, an hour). */
  maxEventAgeMs?: number;
  /** Whether its runs' failures are told in the thread (an agent's are, unless the app's option says otherwise). */
  failureNotices?: ListenerSpec["failureNotices"];
  /** Turn budgets of the users' messages (`userMessage`), over the app's `limits` field by field. */
  limits?: TurnLimits<ListenerContext, Env>;
}

/** Bolt's `new Assistant({ … })`, for `app.assistant(assistant)`: its configuration, checked (`Assistant<Env>`: `App<Env>`). */
export class Assistant<Env = EnvBindings> {
  constructor(readonly config: AssistantConfig<Env>) {
    for (const key of ["threadStarted", "userMessage"] as const)
      if (typeof config?.[key] !== "function") throw new TypeError(`Assistant needs a ${key} function`);
  }
}

/** One listener `app.assistant` registers. */
export interface AssistantListener {
  name: string;
  spec: ListenerSpec;
  match: Match;
}

function eventMatching(test: (event: Record<string, unknown>, inbound: Inbound) => boolean): Match {
  return (inbound) => {
    const event = eventOf(inbound);
    if (!event || !test(event, inbound)) return undefined;
    // A message reaches its handler as Bolt's message listeners get it: as `message` too.
    return {
      inbound,
      body: inbound.payload,
      event,
      ...(event.type === "message" ? { message: event } : {}),
    } satisfies ListenerContext;
  };
}

/** Messages in the app's DM (`channel_type: "im"`) from users; a file shared there too (Bolt's rule). */
const isUserMessageInDm = (event: Record<string, unknown>) =>
  event.type === "message" && event.channel_type === "im" && (event.subtype === undefined || event.subtype === "file_share");

/** A handler as a listener's run: every run's arguments, its `say` bound to the thread, and the assistant's tools. */
function asRun(handler: Handler<never>): NonNullable<ListenerSpec["run"]> {
  return (args: RunArgs, tools?: RunTools) => {
    if (args.event?.type === "agent_session_title_changed") keepUserTitle(args.inbound, args.event, tools?.threadContexts);
    const tooled = assistantTools(args.inbound, args.event ?? {}, args.client, tools);
    // Its own tools past the run's catch too, as the run's other tools are (app/run/guardedTools.ts).
    const own = tools?.guarded ? tools.guarded(tooled) : tooled;
    return (handler as Handler<RunArgs>)({ ...args, ...own });
  };
}

/** The listeners of one `app.assistant(…)`: named `assistant:{handler}`, each matching its events. */
export function assistantListeners<Env>(assistant: AssistantConfig<Env> | Assistant<Env>): AssistantListener[] {
  const config = assistant instanceof Assistant ? assistant.config : new Assistant(assistant).config;
  const { turns, maxEventAgeMs, failureNotices } = config;
  // Only a user's message is a turn, so only userMessage is ever counted against `limits`.
  const policies = { turns, maxEventAgeMs, failureNotices, limits: config.limits as ListenerSpec["limits"] };
  const saveContext: Handler<AssistantThreadContextChangedArgs> = ({ saveThreadContext }) => saveThreadContext();
  const handlers: [
    Exclude<keyof AssistantConfig<Env>, "turns" | "maxEventAgeMs" | "failureNotices" | "limits">,
    Handler<never> | undefined,
    Match,
  ][] = [
    ["threadStarted", config.threadStarted, eventMatching((e) => e.type === "assistant_thread_started")],
    [
      "threadContextChanged",
      config.threadContextChanged ?? saveContext,
      eventMatching((e) => e.type === "assistant_thread_context_changed"),
    ],
    ["userMessage", config.userMessage, eventMatching(isUserMessageInDm)],
    ["messagesTabOpened", config.messagesTabOpened, eventMatching((e) => e.type === "app_home_opened" && e.tab === "messages")],
    ["appContextChanged", config.appContextChanged, eventMatching((e) => e.type === "app_context_changed")],
    ["titleChanged", config.titleChanged, eventMatching((e) => e.type === "agent_session_title_changed")],
  ];
  return handlers.flatMap(([handler, run, match]) =>
    run ? [{ name: `assistant:${handler}`, spec: { run: asRun(run), subtypes: ["file_share"], ...policies }, match }] : [],
  );
}
