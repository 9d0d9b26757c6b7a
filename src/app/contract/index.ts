/**
 * The contract between the engine and an app: what an app plans (`SlackApp`, `Plan`,
 * `PlannedEffect`) and the effects as the outbox stores them, their idempotency keys, and what the
 * shard hands a run (`RunTools`: client, `step`, stream ledger and limits, thread contexts,
 * controls, the ledger of its durable waits, whether the app is an agent). Lower folders (recording, delivery, effects, …) import the app only from here.
 */
export type {
  AlertEffect,
  Effect,
  FunctionCompleteEffect,
  InstallationEffect,
  RelayEffect,
  ResponseUrlEffect,
  RunEffect,
  RunFailure,
  SlackApiEffect,
  StreamCloseEffect,
} from "./effects";
export { outboxKeyOf } from "./outboxKey";
export type {
  AckBody,
  EnvBindings,
  FailureNotices,
  LateEvent,
  OptionsLoadWorld,
  Plan,
  PlannedEffect,
  RunControls,
  RunTools,
  SlackApp,
  StatusUpdate,
  Step,
} from "./slackApp";
export type { StreamLedger, StreamLimits, StreamTools } from "./streamTools";
export type { AssistantThreadContext, ContextSave, SessionTitleStore, ThreadContextStore } from "./threadContexts";
export type { BudgetWindows, TurnBudget, TurnLimit } from "./turnBudget";
export type { WaitAnswer, WaitLedger, WaitRecord } from "./waitTools";
export { withOwnEffects } from "./withOwnEffects";
