// `slack-durable-coordinator/testing`: the kit for testing an app built on the coordinator.
// Plain Web APIs only (nothing from `cloudflare:*`), so it loads in workerd tests and in Node.
export type { Delivery, SignOptions } from "./deliveries";
export { messageTs, slackId } from "./deliveries";
export type { CallMatch, Fault, RecordedCall } from "./fakeSlack";
export { FakeSlack } from "./fakeSlack";
export type { ShardAlarmOptions, ShardAlarmRunner } from "./shardAlarm";
export { runShardAlarm, TestClock } from "./shardAlarm";
export type { SlackSimulatorOptions } from "./slackSimulator";
export { SlackSimulator } from "./slackSimulator";
