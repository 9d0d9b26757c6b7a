import type { Inbound } from "../../inbound/types";
import { HandlerMisuse } from "../../platform/errors";
import { type LogFields, log } from "../../platform/log";
import type { AckBody } from "../contract";
import type { RunContext, RunLogger } from "../listeners";
import { ownBotUser } from "../listeners";

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
