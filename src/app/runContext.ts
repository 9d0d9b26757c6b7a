import type { Inbound } from "../inbound/types";
import { HandlerMisuse } from "../platform/errors";
import { type LogFields, log } from "../platform/log";
import { ownBotUser } from "./filters";
import type { AckBody } from "./types";

/** Bolt's `context` in a run: who the delivery is for, Slack's retry headers, a message pattern's match. */
export interface RunContext {
  teamId?: string;
  enterpriseId?: string;
  /** This app's bot user, from the envelope's `authorizations` (events only). */
  botUserId?: string;
  /** `X-Slack-Retry-Num` of the request that was recorded (Slack's retry, not the run's attempt). */
  retryNum?: number;
  retryReason?: string;
  /** `app.message(RegExp)`: the pattern's match of the message text. */
  matches?: RegExpMatchArray;
}

/** Bolt's `logger`: the coordinator's JSON log lines, each with the delivery's keys. */
export interface RunLogger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export function runContext(inbound: Inbound, matches: RegExpMatchArray | undefined): RunContext {
  const { teamId, enterpriseId, retryNum, retryReason } = inbound;
  return { teamId, enterpriseId, botUserId: ownBotUser(inbound), retryNum, retryReason, matches };
}

export function runLogger(keys: LogFields): RunLogger {
  const line = (level: "info" | "warn" | "error") => (msg: string, fields?: LogFields) => log(level, msg, { ...fields, ...keys });
  // log() has no debug level; a debug line keeps the same JSON shape.
  const debug = (msg: string, fields?: LogFields) => console.debug(JSON.stringify({ level: "debug", msg, ...fields, ...keys }));
  return { debug, info: line("info"), warn: line("warn"), error: line("error") };
}

/**
 * `ack` in a run, for Bolt-shaped code: the coordinator acked when the delivery was recorded, so
 * `ack()` does nothing; a body can no longer reach Slack, which no retry cures.
 */
export async function ackInRun(body?: AckBody | string): Promise<void> {
  if (body === undefined) return;
  throw new HandlerMisuse(
    "ack(body) in run comes too late: Slack was answered when the delivery was recorded; answer with a body from the ack phase ({ ack: ({ … }) => body, run })",
  );
}
