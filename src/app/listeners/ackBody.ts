import type { Inbound } from "../../inbound/types";
import type { AckBody } from "../contract";
import type { AckResult } from "./listeners";

/** What a listener's `ack` returned, as the body of the ack Slack gets. */
export function toAckBody(result: AckResult, inbound: Inbound): AckBody | undefined {
  if (result === undefined) return undefined;
  // A command's plain-text ack is the ephemeral reply Slack shows the invoker at once.
  if (typeof result === "string")
    return inbound.kind === "command" ? { response_type: "ephemeral", text: result } : { text: result };
  return result;
}
