/**
 * The library: what a Worker that uses the coordinator imports. Five lines make a Worker:
 *
 *   import { App, createCoordinator } from "slack-durable-coordinator";
 *   const app = new App();
 *   app.event("app_mention", async ({ say }) => { await say("hi"); });
 *   const { worker, Shard, Installations } = createCoordinator({ app });
 *   export { Shard, Installations };  export default worker;
 *
 * (`Installations` is needed in OAuth mode only: docs/guides/oauth.md.)
 *
 * Everything else under src/ is internal and may change between versions.
 */
// Slack's own payload and Block Kit types, for annotating helpers outside a listener.

// All of them as Bolt's `types` namespace: `types.ContextActionsBlock`, `types.ModalView`.
export type * as types from "@slack/types";
export type {
  AllMessageEvents,
  AppMentionEvent,
  Block,
  GenericMessageEvent,
  KnownBlock,
  MessageAttachment,
  ModalView,
  OptionGroup,
  PlainTextOption,
  SlackEvent,
  View,
} from "@slack/types";
export type { AppOptions } from "./app/App";
export { App } from "./app/App";
export type {
  AgentAppContextChangedArgs,
  AgentMessagesTabOpenedArgs,
  AgentSessionTitleChangedArgs,
  AgentViewTools,
  AssistantConfig,
  AssistantPrompt,
  AssistantThreadContextChangedArgs,
  AssistantThreadStartedArgs,
  AssistantTools,
  AssistantUserMessageArgs,
  AssistantUserMessageEvent,
  SetTitleOptions,
} from "./app/assistant";
export { Assistant } from "./app/assistant";
export type {
  AckBody,
  AssistantThreadContext,
  ContextSave,
  Effect,
  EnvBindings,
  FailureNotices,
  InstallationEffect,
  LateEvent,
  OptionsLoadWorld,
  Plan,
  PlannedEffect,
  ResponseUrlEffect,
  RunControls,
  RunEffect,
  RunFailure,
  RunTools,
  SessionTitleStore,
  SlackApiEffect,
  SlackApp,
  StatusUpdate,
  Step,
  ThreadContextStore,
  TurnLimit,
  WaitAnswer,
} from "./app/contract";
export type {
  AckArgs,
  AckBodyInRun,
  AckResult,
  ActionArgs,
  BlockAction,
  BlockActionsBody,
  BlockElementAction,
  BlockSuggestionBody,
  ChatStreamArguments,
  CommandArgs,
  EntityDetailsTools,
  ErrorArgs,
  ErrorHandler,
  ErrorHandlerArg,
  EventArgs,
  EventEnvelope,
  EventOf,
  EventType,
  ExceededArgs,
  FunctionArgs,
  FunctionCompleteArguments,
  FunctionCompletion,
  FunctionData,
  FunctionExecutedBody,
  FunctionExecutedEvent,
  FunctionFailArguments,
  FunctionInputs,
  Listener,
  ListenerContext,
  ListenerSpec,
  Matcher,
  OptionsAckBody,
  OptionsAcker,
  OptionsArgs,
  OptionsConstraint,
  OptionsListener,
  OptionsLoadArgs,
  OptionsLoader,
  RespondArguments,
  RunArgs,
  RunClient,
  RunContext,
  RunLogger,
  SayArguments,
  ShortcutArgs,
  ShortcutBody,
  SlashCommand,
  TurnLimits,
  TurnPolicy,
  ViewArgs,
  ViewBody,
  ViewOutput,
  ViewStateValue,
} from "./app/listeners";
export { ownBotUser } from "./app/listeners";
export type {
  AppHomeDeclaration,
  AppManifest,
  AppManifestDeclaration,
  AssistantDeclaration,
  CommandDeclaration,
  EntityDetailsDeclaration,
  EntityTypeName,
  FunctionDeclaration,
  FunctionParameter,
  FunctionParameters,
  ManifestOptions,
  ShortcutDeclaration,
} from "./app/manifest";
export type {
  Search,
  SearchAnswer,
  SearchChannelType,
  SearchContentType,
  SearchMessage,
  SearchOptions,
} from "./app/search";
export { SearchRefused } from "./app/search";
export type {
  ChatStreamer,
  ModelSource,
  ModelStream,
  ModelStreamPart,
  ModelToolCall,
  ModelToolOutcome,
  PipedReply,
  PipeOptions,
  SayStreamOptions,
  StreamAppendArguments,
  StreamStopArguments,
  TaskDisplayMode,
  TaskOutput,
  TaskText,
} from "./app/streams";
// Durable waits and timers: a run's `sleep`, `sleepUntil` and `waitForAction`.
export type { DurableTimers, DurableWaits, WaitAnswerers, WaitButton, WaitOutcome, WaitQuestion } from "./app/waits";
// Work Objects: `app.entityDetails`'s arguments.
export type { EntityDetailsArgs } from "./app/workObjects";
export type { Authorization, Authorize, WorkspaceRef } from "./auth/authorize";
export { singleWorkspace } from "./auth/authorize";
export type { CoordinatorOptions } from "./coordinator";
export { createCoordinator } from "./coordinator";
export type { Conversation, Inbound, InboundKind } from "./inbound/types";
export { fromInstallations } from "./installations/authorizeInstallation";
export type { CodedError, Disposition, ParkedErrorCode } from "./platform/errors";
export {
  DeliveryError,
  ExpiredHandle,
  ForbiddenUrl,
  HandlerError,
  HandlerMisuse,
  LeaseLost,
  ListenerGone,
  MissingBotToken,
  MissingScope,
  ModelAborted,
  NotInstalled,
  ParkedError,
  RetryableError,
  RunStopped,
  SlackApiError,
  SlackUnreachable,
  TokenRefreshFailed,
} from "./platform/errors";
export type { CoordinatorEnv } from "./rpc/env";
export type { InstallationStatus, InstallationSummary } from "./rpc/installations";
export type { SlackWebClient } from "./slack/client";
export type { WebApiMethods } from "./slack/webApiMethods";
export type {
  EntityDetails,
  EntityErrorStatus,
  EntityPresentDetailsArguments,
  EntityPresentDetailsError,
  UnfurledEntity,
  WorkObjectUnfurls,
} from "./slack/workObjects";
