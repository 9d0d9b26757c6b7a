import type { Inbound } from "../../inbound/types";
import { userOf } from "../../inbound/userOf";
import { HandlerMisuse } from "../../platform/errors";

/**
 * Who may answer a durable wait: `"asker"` (the default) — the user whose message, click or
 * command started the run —, these user ids, or `"anyone"` who sees the question.
 */
export type WaitAnswerers = "asker" | "anyone" | readonly string[];

/**
 * The user ids a wait's question may be answered by, null for anyone. A run whose delivery names
 * no user (another app's message, a workflow step) has no asker: `"asker"` there is refused, not
 * widened to anyone — the code asked for one person's consent, and anyone's click is not that.
 */
export function waitAnswerersOf(name: string, from: WaitAnswerers | undefined, inbound: Inbound): string[] | null {
  if (from === "anyone") return null;
  if (from === undefined || from === "asker") {
    const asker = userOf(inbound);
    if (!asker)
      throw new HandlerMisuse(
        `waitForAction("${name}"): this delivery names no user to ask; give \`from\` the user ids who may answer, or "anyone"`,
      );
    return [asker];
  }
  if (!Array.isArray(from) || from.length === 0 || !from.every((user) => typeof user === "string" && user !== ""))
    throw new HandlerMisuse(`waitForAction("${name}"): \`from\` is "asker", "anyone" or a non-empty list of user ids`);
  return [...from];
}
