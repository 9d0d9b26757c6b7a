/** The calls a FakeSlack recorded, oldest first, and the waits for a call still to come. */

export interface RecordedCall {
  method: string;
  url: string;
  /** The Authorization header as sent (`Bearer xoxb-…`), or null. */
  token: string | null;
  body: Record<string, unknown>;
  at: number;
  /** What the fake answered: "ok", a fault's description. */
  outcome: string;
  /** The HTTP status answered; 0 when none was (a hang, a dropped connection). */
  status: number;
  /** Whether Slack applied it (answered ok, or lost its answer after applying it). */
  applied: boolean;
  /** The request's content-type, as sent. */
  contentType: string | null;
}

export class FakeCalls {
  readonly calls: RecordedCall[] = [];
  private readonly waiters: Array<{ predicate: (call: RecordedCall) => boolean; resolve: (call: RecordedCall) => void }> = [];

  record(call: RecordedCall): void {
    this.calls.push(call);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (waiter.predicate(call)) {
        this.waiters.splice(i, 1);
        waiter.resolve(call);
      }
    }
  }

  /** Resolves with the first recorded call matching `predicate` (already made, or the next one). */
  waitForCall(predicate: (call: RecordedCall) => boolean): Promise<RecordedCall> {
    const made = this.calls.find(predicate);
    if (made) return Promise.resolve(made);
    return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
  }

  /** The first call of `method` matching `predicate`; rejects naming the calls seen after `timeoutMs`. */
  waitFor(method: string, predicate: (call: RecordedCall) => boolean, timeoutMs: number): Promise<RecordedCall> {
    const seen = this.waitForCall((call) => call.method === method && predicate(call));
    let late!: (error: Error) => void;
    const timeout = new Promise<never>((_, reject) => {
      late = reject;
    });
    const timer = setTimeout(() => {
      const made = this.calls.map((call) => call.method).join(", ") || "none";
      late(new Error(`FakeSlack: no ${method} call within ${timeoutMs} ms (calls made: ${made})`));
    }, timeoutMs);
    return Promise.race([seen, timeout]).finally(() => clearTimeout(timer));
  }
}
