import type { AckBody, SlackApp } from "../app/contract";
import type { Inbound } from "../inbound/types";
import { describeError, type LogFields, log } from "../platform/log";

/** What Slack shows for a load that could not be answered: an empty menu, never an error. */
const NO_OPTIONS: AckBody = { options: [] };

/**
 * An options load whose listener reads before it acks (a database, an API): answered here, at the
 * edge, by `deadline` (ACK_BUDGET_MS after the request arrived, inside Slack's 3 s), and nothing is
 * recorded — a load changes nothing and Slack never retries one. A listener that is late, throws
 * or returns without acking gets Slack an empty list and a log line; a late one's `signal` aborts.
 * Undefined when no such listener takes the load (the pure `ack` path answers it, or the shard).
 */
export async function answerOptionsLoad(
  app: SlackApp,
  inbound: Inbound,
  env: Record<string, unknown>,
  deadline: number,
  facts: LogFields,
): Promise<AckBody | undefined> {
  const due = new AbortController();
  const loading = app.loadOptions?.(inbound, { env, signal: due.signal });
  if (!loading) return undefined;
  const where = { action_id: actionIdOf(inbound), team: inbound.teamId };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), Math.max(0, deadline - Date.now()));
  });
  try {
    const answer = await Promise.race([loading, late]);
    if (answer === "late") {
      due.abort(new Error("the options load's answer was due (ACK_BUDGET_MS)"));
      // What it still does is its own; a rejection after the answer went is not an error of the request.
      loading.catch(() => {});
      facts.outcome = "options: late";
      log("warn", "options load not acked within ACK_BUDGET_MS: Slack got an empty list", where);
      return NO_OPTIONS;
    }
    facts.outcome = answer ? "options" : "options: not acked";
    if (!answer) log("warn", "options load returned without ack(): Slack got an empty list", where);
    return answer ?? NO_OPTIONS;
  } catch (error) {
    facts.outcome = "options: failed";
    log("error", "options load failed: Slack got an empty list", { ...where, error: describeError(error, true) });
    return NO_OPTIONS;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

function actionIdOf(inbound: Inbound): string | undefined {
  const payload = inbound.payload as { action_id?: unknown };
  return typeof payload.action_id === "string" ? payload.action_id : undefined;
}
