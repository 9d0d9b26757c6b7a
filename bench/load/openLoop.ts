import { Agent, request as httpRequest } from "node:http";
import { highResNow } from "./clock";
import type { PreparedEvent } from "./mentions";

/** One request's fate. Latency is measured from its scheduled send time (no coordinated omission). */
export interface Sample {
  thread: string;
  scheduledAt: number;
  settledAt: number;
  /** HTTP status; 0 when there was no answer (timeout or connection error). */
  status: number;
  /** Why there was no answer: `timeout`, or the socket error's code (`ECONNRESET`, …). */
  failure?: string;
}

export interface OpenLoopProgress {
  sent: number;
  settled: number;
  non2xx: number;
  inFlight: number;
}

export interface OpenLoopOptions {
  url: string;
  events: readonly PreparedEvent[];
  /** Offered rate, events per second: sends follow the schedule whatever the answers do. */
  rate: number;
  /** A request unanswered after this counts as failed (status 0). */
  timeoutMs: number;
  /** When event 0 is due (clock.ts); 50 ms from now when omitted. One already past sends what is overdue at once, timed from its schedule. */
  startAt?: number;
  onProgress?: (progress: OpenLoopProgress) => void;
}

const agent = new Agent({ keepAlive: true, maxSockets: 512 });

const failureOf = (error: Error & { code?: string }) => error.code ?? error.message.slice(0, 60);

function post(url: URL, event: PreparedEvent, timeoutMs: number): Promise<{ status: number; failure?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(
      url,
      { method: "POST", agent, headers: { ...event.headers, "content-length": Buffer.byteLength(event.body) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
        res.on("error", (error) => resolve({ status: 0, failure: failureOf(error) }));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error("timeout")));
    req.on("error", (error) => resolve({ status: 0, failure: failureOf(error) }));
    req.end(event.body);
  });
}

/**
 * Open-loop load: event i is due at start + i/rate and is sent when due (a 1 ms timer tick),
 * however many earlier requests are still waiting. Resolves when every request has settled.
 */
export async function runOpenLoop(options: OpenLoopOptions): Promise<Sample[]> {
  const url = new URL(options.url);
  const samples: Sample[] = new Array(options.events.length);
  const start = options.startAt ?? highResNow() + 50;
  const intervalMs = 1000 / options.rate;
  let next = 0;
  let settled = 0;
  let non2xx = 0;
  const progress = () => options.onProgress?.({ sent: next, settled, non2xx, inFlight: next - settled });
  const reporter = setInterval(progress, 1000);

  await new Promise<void>((done) => {
    if (options.events.length === 0) return done();
    const tick = () => {
      const now = highResNow();
      while (next < options.events.length && start + next * intervalMs <= now) {
        const index = next++;
        const event = options.events[index]!;
        const scheduledAt = start + index * intervalMs;
        void post(url, event, options.timeoutMs).then(({ status, failure }) => {
          samples[index] = {
            thread: event.thread,
            scheduledAt,
            settledAt: highResNow(),
            status,
            ...(failure ? { failure } : {}),
          };
          settled++;
          if (status < 200 || status >= 300) non2xx++;
          if (settled === options.events.length) done();
        });
      }
      if (next < options.events.length) setTimeout(tick, 1);
    };
    tick();
  });
  clearInterval(reporter);
  progress();
  return samples;
}
