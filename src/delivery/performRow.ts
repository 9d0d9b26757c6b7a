import type { Effect } from "../app/contract";
import { DeliveryError, HandlerError, SlackApiError, SubrequestsSpent } from "../platform/errors";
import type { InvocationMeter } from "../platform/invocationMeter";
import { describeError, log } from "../platform/log";
import { inSpan } from "../platform/spans";
import type { ClaimedRow } from "../recording/outbox";
import { TOKEN_REJECTIONS } from "../slack/classifyAnswer";
import { Attempt } from "./attempt";
import type { AttemptReport } from "./attemptPosts";
import type { Courier } from "./courier";
import { deliveryFields } from "./deliveryFields";

/**
 * Performs one attempt of a claimed row, in a span of its own (its Slack calls, steps and waits
 * inside it; ended when the attempt settles): the attempt is made (attempt.ts; a stop that met the
 * row throws there), the settle's `report` reads its posts, its kind performs it with its context,
 * its stop ends, and what it came to is ruled on (`throwRefusal`, `failed`). Throws what went wrong.
 */
export function performRow(
  courier: Courier,
  effect: Effect,
  row: ClaimedRow,
  token: string,
  report?: AttemptReport,
  meter?: InvocationMeter,
): Promise<void> {
  const fields = deliveryFields(effect, row);
  // Made only for a span that keeps them (platform/spans.ts): nothing is traced in most invocations.
  const attributes = () => ({ ...fields, attempt: row.attempts + 1 });
  return inSpan("attempt", attributes, () => {
    const attempt = new Attempt(courier, effect, row, token, fields, report?.story, meter);
    if (report) reportInto(report, attempt);
    const performed = attempt.kind.perform(effect, attempt.context(), attempt.deps);
    // The attempt ends however it went: a stop no longer reaches it.
    const end = () => attempt.stop?.end();
    performed.then(end, end);
    return performed.then(
      // A refusal its handler caught is still one: not taken as delivered.
      () => throwRefusal(attempt),
      (error: unknown) => failed(attempt, error),
    );
  });
}

/** What the settle writes of the attempt (deliverClaimed.ts): whether its posts are uncertain, the step results it kept. */
function reportInto(report: AttemptReport, attempt: Attempt): void {
  report.postsUncertainSince = () => attempt.posts.postsUncertainSince();
  report.checkpoints = (sized) => attempt.checkpoints(sized);
}

/** A refusal of the shard's door (subrequests spent) rules: the row goes on in a later invocation. */
function throwRefusal(attempt: Attempt): void {
  const refusal = attempt.outbound.refusal();
  if (refusal) throw refusal;
}

/** Rules on a failed attempt: a refusal of the shard's door first, then Slack's refusal of the token is reported. */
async function failed(attempt: Attempt, error: unknown): Promise<never> {
  // A handler's own error after a refusal came of it. A stop, a lost lease or Slack's refusal still rules.
  if (error instanceof HandlerError || !(error instanceof DeliveryError) || error instanceof SubrequestsSpent)
    throwRefusal(attempt);
  const rejected = tokenRejectionOf(error);
  if (rejected !== undefined) await reportTokenRejection(attempt, rejected);
  throw error;
}

/**
 * Slack's code when it refused the token itself: said to whoever issued it, then the attempt fails
 * as usual (parked). Not a token the handler passed itself, such as context.userToken: the bot's is still good.
 */
export function tokenRejectionOf(error: unknown): string | undefined {
  if (!(error instanceof SlackApiError) || error.code === undefined || error.callerToken) return undefined;
  return TOKEN_REJECTIONS.has(error.code) ? error.code : undefined;
}

async function reportTokenRejection(attempt: Attempt, code: string): Promise<void> {
  try {
    await attempt.tokenRejected(code);
  } catch (problem) {
    log("warn", "token rejection not reported", { ...attempt.fields, error: describeError(problem) });
  }
}
