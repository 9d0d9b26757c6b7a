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
  /** Answered as usual, `delayMs` later (real time; the caller's timeout may end it first). */
  | { delayMs: number }
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
  if ("delayMs" in fault) return 200;
  if ("hang" in fault || "reset" in fault) return 0;
  return "status" in fault ? fault.status : 200;
}

/** Whether Slack applied a call that met `fault`: none, or one whose answer alone was lost. */
export function appliedUnder(fault: Fault | undefined): boolean {
  return fault === undefined || "lostAnswer" in fault || "delayMs" in fault;
}

/** Resolves when `ms` have passed, or rejects when `signal` aborts first. */
function waitOrAbort(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const abort = () => {
      if (timer !== undefined) clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("aborted", "AbortError"));
    };
    // A hang sets no timer (an infinite delay would be taken for 1 ms).
    const timer = Number.isFinite(ms)
      ? setTimeout(() => {
          signal?.removeEventListener("abort", abort);
          resolve();
        }, ms)
      : undefined;
    // The caller may have given up while the body was read: an abort already fired fires no event.
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort);
  });
}

/** Plays `fault` on a call whose normal answer is `success()` (made only when Slack applies the call). */
export async function playFault(
  fault: Fault,
  signal: AbortSignal | null | undefined,
  success: () => Response,
): Promise<Response> {
  if ("delayMs" in fault) {
    await waitOrAbort(fault.delayMs, signal);
    return success();
  }
  if ("lostAnswer" in fault) {
    await success().arrayBuffer();
    if (fault.lostAnswer === "reset") throw new TypeError("Network connection lost.");
    if (fault.lostAnswer === "serverError") return Response.json({ ok: false, error: "internal_error" }, { status: 500 });
  }
  if ("hang" in fault || "lostAnswer" in fault) {
    await waitOrAbort(Number.POSITIVE_INFINITY, signal);
    throw new Error("unreachable: a hang ends only when its caller gives up");
  }
  if ("reset" in fault) throw new TypeError("Network connection lost.");
  const status = "status" in fault ? fault.status : 200;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if ("retryAfter" in fault && fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
  const error = fault.error ?? (status === 429 ? "ratelimited" : `http_${status}`);
  return new Response(JSON.stringify({ ok: false, error }), { status, headers });
}
