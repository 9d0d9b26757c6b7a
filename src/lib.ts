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
  AssistantConfig,
  AssistantThreadContextChangedArgs,
  AssistantThreadStartedArgs,
  AssistantUserMessageArgs,
  AssistantUserMessageEvent,
} from "./app/assistant";
export { Assistant } from "./app/assistant";
export type { AgentViewTools, AssistantPrompt, AssistantTools } from "./app/assistantTools";
export type { Effect, InstallationEffect, ResponseUrlEffect, RunEffect, RunFailure, SlackApiEffect } from "./app/effects";
export type { ErrorArgs, ErrorHandler } from "./app/errorHandler";
export { ParkedError } from "./app/errorHandler";
export { ownBotUser } from "./app/filters";
export type {
  FunctionCompleteArguments,
  FunctionCompletion,
  FunctionData,
  FunctionExecutedBody,
  FunctionExecutedEvent,
  FunctionFailArguments,
  FunctionInputs,
} from "./app/functionPayloads";
export type {
  AckArgs,
  AckResult,
  ActionArgs,
  CommandArgs,
  EventArgs,
  FunctionArgs,
  Listener,
  ListenerContext,
  ListenerSpec,
  Matcher,
  OptionsArgs,
  RunArgs,
  ShortcutArgs,
  ViewArgs,
} from "./app/listeners";
export type { OptionsConstraint, OptionsListener } from "./app/options";
export type {
  BlockActionsBody,
  BlockElementAction,
  BlockSuggestionBody,
  EventEnvelope,
  EventOf,
  EventType,
  OptionsAnswer,
  RespondArguments,
  SayArguments,
  ShortcutBody,
  SlashCommand,
  ViewBody,
  ViewOutput,
  ViewStateValue,
} from "./app/payloads";
export type { RunContext, RunLogger } from "./app/runContext";
export type { ChatStreamer, SayStreamOptions, StreamAppendArguments, StreamStopArguments } from "./app/sayStream";
export type { AssistantThreadContext, ContextSave, ThreadContextStore, ThreadKey } from "./app/threadContext";
export type { AckBody, Plan, PlannedEffect, RunControls, RunTools, SlackApp, StatusUpdate, Step } from "./app/types";
export type { Authorization, Authorize, WorkspaceRef } from "./auth/authorize";
export { singleWorkspace } from "./auth/authorize";
export type { CoordinatorOptions } from "./coordinator";
export { createCoordinator } from "./coordinator";
export type { Inbound, InboundKind } from "./inbound/types";
export { fromInstallations } from "./installations/authorizeInstallation";
export type { Disposition } from "./platform/errors";
export {
  DeliveryError,
  ExpiredHandle,
  ForbiddenUrl,
  HandlerError,
  HandlerMisuse,
  LeaseLost,
  ListenerGone,
  MissingBotToken,
  NotInstalled,
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
