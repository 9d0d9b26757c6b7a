import { log } from "../platform/log";

/** Failed logins are logged at most this often; those in between are counted into the next line. */
const LINE_EVERY_MS = 60_000;

/** When this isolate last logged a failed login, and the failures counted since (one number: bounded). */
let lastLineAt = Number.NEGATIVE_INFINITY;
let unlogged = 0;

/**
 * A refused `/admin/*` request (a missing or wrong bearer token): the first of a minute is logged at
 * once, with how many failed since the previous line; the rest of that minute are only counted, so a
 * flood is one line a minute. The token, or any part of it, is never logged.
 */
export function noteFailedLogin(request: Request, reason: string, now = Date.now()): void {
  // A clock that went back (an isolate's time is not monotonic across restarts) starts a new line too.
  if (now >= lastLineAt && now - lastLineAt < LINE_EVERY_MS) {
    unlogged++;
    return;
  }
  log("warn", "admin login failed", {
    reason,
    method: request.method,
    path: new URL(request.url).pathname,
    failures: unlogged + 1,
    sinceMs: Number.isFinite(lastLineAt) ? now - lastLineAt : null,
  });
  lastLineAt = now;
  unlogged = 0;
}
