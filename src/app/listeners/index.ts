/**
 * The Bolt-style listener API: what each kind of listener receives (payload types after Slack's and
 * `@slack/types`), its arguments per phase (`ack`, `run`), how a registration matches a delivery,
 * the built-in filters and the app's options (`appOptions.ts`), a delivery's plan over the registered
 * listeners (`deliveryPlan.ts`), which of its runs are turns of a conversation (`turns.ts`) and under which budgets (`turnLimits.ts`), which
 * listeners an event is too old for (`lateEvents.ts`) and whose failures its user is told (`failureNoticesOption.ts`),
 * options loads acked at the edge, ack bodies, and `app.error` with the error it is given (`ParkedError`, in platform/runErrors.ts).
 */
export { toAckBody } from "./ackBody";
export type { AppOptions, PlanOptions } from "./appOptions";
export { planOptionsOf } from "./appOptions";
export type { Registered } from "./deliveryPlan";
export { planOf, registeredName } from "./deliveryPlan";
export type { ErrorArgs, ErrorHandler, ErrorHandlerArg } from "./errorHandler";
export { ERROR_HANDLER, errorFollowUps, runErrorHandler } from "./errorHandler";
export type { FailureNoticesOption } from "./failureNoticesOption";
export { failureNoticesOf } from "./failureNoticesOption";
export { ownBotUser } from "./filters";
export type {
  FunctionCompleteArguments,
  FunctionCompletion,
  FunctionData,
  FunctionExecutedBody,
  FunctionExecutedEvent,
  FunctionFailArguments,
  FunctionInputs,
} from "./functionPayloads";
export { checkedMaxEventAge } from "./lateEvents";
export type {
  ActionArgs,
  CommandArgs,
  EventArgs,
  FunctionArgs,
  ListenerContext,
  Matched,
  MessageArgs,
  OptionsArgs,
  ShortcutArgs,
  ViewArgs,
} from "./listenerArgs";
export type { DeliveryFilters } from "./listenerFilters";
export { ignoredDelivery, listenerWants } from "./listenerFilters";
export type {
  AckArgs,
  AckBodyInRun,
  AckResult,
  ChatStreamArguments,
  EntityDetailsTools,
  ExceededArgs,
  KindTools,
  Listener,
  ListenerSpec,
  Matcher,
  RunArgs,
  RunClient,
  RunContext,
  RunLogger,
  TurnLimits,
} from "./listeners";
export { describeMatcher, matches, specOf } from "./listeners";
export type { Match } from "./matchers";
export {
  actionMatch,
  actionRegistration,
  commandMatch,
  constraintOf,
  eventMatch,
  messageMatch,
  shortcutMatch,
  viewMatch,
  viewRegistration,
} from "./matchers";
export type {
  MatchedLoader,
  OptionsAcker,
  OptionsConstraint,
  OptionsListener,
  OptionsLoadArgs,
  OptionsLoader,
} from "./optionsLoads";
export { optionsLoadAck, optionsLoaderFor, optionsRegistration } from "./optionsLoads";
export type {
  BlockAction,
  BlockActionsBody,
  BlockElementAction,
  BlockSuggestionBody,
  EventEnvelope,
  EventOf,
  EventType,
  EventWithSubtypesOf,
  OptionsAckBody,
  RespondArguments,
  SayArguments,
  ShortcutBody,
  SlashCommand,
  ViewBody,
  ViewOutput,
  ViewStateValue,
} from "./payloads";
export { listenerRun } from "./turnLimits";
export type { TurnPolicy } from "./turns";
