import type { Inbound } from "../../inbound/types";
import type { AckBody, OptionsLoadWorld } from "../contract";
import { type MatchedLoader, type OptionsAckBody, toAckBody } from "../listeners";
import { runContext } from "./runContext";
import { runLogger } from "./runLogger";

/**
 * Runs a loading `app.options` listener with Bolt's arguments and answers what it acked: the
 * first `ack(body)` counts, a later one is logged and changes nothing; undefined when it returned
 * without acking. What it throws, the caller gets (the edge answers an empty list and logs it).
 */
export async function loadOptionsWith(
  { name, args, load }: MatchedLoader,
  inbound: Inbound,
  { env, signal }: OptionsLoadWorld,
): Promise<AckBody | undefined> {
  const logger = runLogger({
    listener: name,
    event_id: inbound.dedupeKey,
    dedupe_key: inbound.dedupeKey,
    workspace: inbound.workspace,
  });
  let acked: AckBody | undefined;
  const ack = async (body: OptionsAckBody) => {
    if (acked) logger.warn("ack() called again in an options load: the first answer stands");
    else acked = toAckBody(body, inbound) ?? { options: [] };
  };
  await load({ ...args, ack, env, signal, logger, context: runContext(inbound, undefined) });
  return acked;
}
