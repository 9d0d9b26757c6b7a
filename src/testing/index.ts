// `slack-durable-coordinator/testing`: the kit for testing an app built on the coordinator.
// Plain Web APIs only (nothing from `cloudflare:*`), so it loads in workerd tests and in Node.
export type { ViewInputState } from "./deliveries";
export { messageTs, slackId } from "./deliveries";
export type { CallMatch, FakeMessage, FakeSlackOptions, Fault, MessageAuthor, RecordedCall, ScriptedAnswer } from "./fakeSlack";
export { FakeSlack } from "./fakeSlack";
export type { FakeSlackFlags } from "./fakeSlackFlags";
export { parseFakeSlackFlags } from "./fakeSlackFlags";
export type { FakeStreamLimits, ShownChunk, StreamState } from "./fakeStreams";
export { SLACK_STREAM_LIMITS } from "./fakeStreams";
export type { TierLimits } from "./fakeTiers";
export { SLACK_TIERS } from "./fakeTiers";
export type { FakeWorkObjects, PresentedDetails, UnfurledWorkObjects } from "./fakeWorkObjects";
export type { ButtonChoice, ClickOptions, PostedQuestion, QuestionPlace } from "./questionClicks";
export type { ShardAlarmOptions, ShardAlarmRunner } from "./shardAlarm";
export { runShardAlarm, TestClock } from "./shardAlarm";
export type { SettledOptions, SettledOutbox } from "./shardSettled";
export { waitUntilSettled } from "./shardSettled";
export type { Delivery, SignOptions } from "./signedDeliveries";
export type { SlackSimulatorOptions } from "./slackSimulator";
export { SlackSimulator } from "./slackSimulator";
