import type { AppManifestDeclaration } from "../manifest";
import type { FailureNoticesOption } from "./failureNoticesOption";
import { checkedMaxEventAge, DEFAULT_MAX_EVENT_AGE_MS } from "./lateEvents";
import type { DeliveryFilters } from "./listenerFilters";
import type { TurnLimits } from "./listeners";
import type { TurnPolicy } from "./turns";

export interface AppOptions {
  /** Only deliveries from these channel ids reach listeners; others are acked and ignored. */
  allowedChannels?: readonly string[];
  /** Bolt's `ignoreSelf` (true); false: the app's own messages reach `includeBots` listeners, which must not answer their own answers. */
  ignoreSelf?: boolean;
  /** The app's part of its Slack manifest (`app.manifest()`): its name, and the scopes its handlers' own calls need. */
  manifest?: AppManifestDeclaration;
  /**
   * The oldest Events API event (ms from Slack's `event_time` to its arrival) a listener answers:
   * an older one (Slack's backlog replayed, a retry past the receipt window) is acked, logged and
   * not run. Default: an hour; `Infinity` answers events of any age. A listener's own
   * `maxEventAgeMs` overrides it. Commands and interactivity carry no event time: never late.
   */
  maxEventAgeMs?: number;
  /**
   * A second message in a thread while the first one's run still answers: `queue` (default) runs
   * it once the first has finished, `interrupt` stops the first, `parallel` runs both at once.
   * A listener's own `turns` (or `app.assistant({ turns })`) overrides it.
   */
  turns?: TurnPolicy;
  /**
   * Whether a run's user is told, once in the run's thread, that the answer is delayed and retried
   * (after its second failed attempt in a row) and, once it is finally parked, that it failed: `true` every
   * run, `false` none, or `{ runs?: "agents" | "all" | "none", retrying?, failed? }` (the words;
   * empty: not posted). Default: only agents' runs (an assistant thread's, a user's message in the
   * app's DM, an `agent: true` listener's; with AGENT_SESSIONS every run of a user's message), in
   * RUN_RETRYING_TEXT's and RUN_PARKED_TEXT's words. A listener's own `failureNotices` overrides it, field by field.
   */
  failureNotices?: FailureNoticesOption;
  /**
   * Turn budgets: `{ turnsPerUser?: { perMinute?, perDay? }, turnsPerWorkspace?: { … }, exceeded? }`,
   * counted in the shard per UTC minute and day; a turn over one is refused (an ephemeral, or `exceeded`
   * runs). A listener's own `limits` (or `app.assistant({ limits })`) overrides it field by field.
   */
  limits?: TurnLimits;
}

/** What planning a delivery takes of the app's options: the built-in filters, the default turn policy, maximum event age and turn budgets. */
export type PlanOptions = DeliveryFilters & { turns: TurnPolicy; maxEventAgeMs: number; limits?: TurnLimits };

export function planOptionsOf(options: AppOptions): PlanOptions {
  return {
    ...(options.allowedChannels ? { allowedChannels: new Set(options.allowedChannels) } : {}),
    ignoreSelf: options.ignoreSelf ?? true,
    turns: options.turns ?? "queue",
    maxEventAgeMs: checkedMaxEventAge(options.maxEventAgeMs, "new App()") ?? DEFAULT_MAX_EVENT_AGE_MS,
    ...(options.limits ? { limits: options.limits } : {}),
  };
}
