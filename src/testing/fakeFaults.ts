/** The faults a FakeSlack plays on request, and which call takes which. */

export type Fault =
  /** An HTTP error, optionally with Slack's JSON error code and Retry-After seconds. */
  | { status: number; error?: string; retryAfter?: number }
  /** HTTP 200 with `{ ok: false, error }`. */
  | { error: string }
  /** Never answers; the caller's timeout must end it. */
  | { hang: true }
  /** The connection drops: fetch rejects. */
  | { reset: true }
  /**
   * Slack applies the call, and its answer is lost: the connection drops (`reset`), it never
   * comes (`hang`, until the caller gives up), or a proxy answers 500 in its place (`serverError`).
   */
  | { lostAnswer: "reset" | "hang" | "serverError" };

export interface CallMatch {
  /** Web API method (`chat.postMessage`) or `response_url`. */
  method?: string;
  channel?: string;
}

interface Scripted {
  match: CallMatch;
  fault: Fault;
  remaining: number;
}

/** Scripted faults, taken in the order they were scripted by the calls they match. */
export class FakeFaults {
  private readonly scripts: Scripted[] = [];

  add(match: CallMatch, fault: Fault, times: number): void {
    this.scripts.push({ match, fault, remaining: times });
  }

  take(method: string, body: Record<string, unknown>): Fault | undefined {
    const script = this.scripts.find(
      (s) =>
        s.remaining > 0 &&
        (s.match.method === undefined || s.match.method === method) &&
        (s.match.channel === undefined || s.match.channel === body.channel),
    );
    if (!script) return undefined;
    script.remaining--;
    return script.fault;
  }
}

/** The HTTP status a fault answers with; 0 when it answers nothing (a hang, a reset). */
export function statusOf(fault: Fault | undefined): number {
  if (!fault) return 200;
  if ("lostAnswer" in fault) return fault.lostAnswer === "serverError" ? 500 : 0;
  if ("hang" in fault || "reset" in fault) return 0;
  return "status" in fault ? fault.status : 200;
}

/** Whether Slack applied a call that met `fault`: none, or one whose answer alone was lost. */
export function appliedUnder(fault: Fault | undefined): boolean {
  return fault === undefined || "lostAnswer" in fault;
}
