import { BoundedMap } from "../platform/boundedMap";
import { Rejection } from "../platform/errors";

/**
 * Distinct wrong tokens one client may present within a window before its requests are refused
 * until the window ends. One wrong token sent again (the console's requests of one sign-in) is one guess.
 */
export const FAILED_LOGINS_ALLOWED = 5;
export const FAILED_LOGIN_WINDOW_MS = 60_000;
/** Clients remembered at once: a flood from many addresses evicts the oldest, never grows memory. */
const CLIENTS_KEPT = 10_000;

/** A window's wrong tokens, by their digest's first 16 base64 characters (never the token). */
type Failures = { since: number; guesses: ReadonlySet<string> };

const ended = (failures: Failures, now: number) => now - failures.since >= FAILED_LOGIN_WINDOW_MS || now < failures.since;
/** Per client (this isolate's view: a bound on how fast tokens can be guessed, not a global lockout). */
const failuresByClient = new BoundedMap<string, Failures>(CLIENTS_KEPT, ended);

/** 429 with Retry-After: the client presented too many wrong tokens; it may try again when the window ends. */
export class TooManyFailedLogins extends Rejection {
  override name = "TooManyFailedLogins";
  constructor(readonly retryAfterSeconds: number) {
    super(429, "too many failed admin logins: try again later");
  }

  override toResponse(): Response {
    const response = super.toResponse();
    response.headers.set("retry-after", String(this.retryAfterSeconds));
    return response;
  }
}

/** The client Cloudflare saw (CF-Connecting-IP); requests without one (local tools) share one entry. */
export function loginClient(request: Request): string {
  return request.headers.get("cf-connecting-ip") ?? "unknown";
}

/** Throws TooManyFailedLogins while `client` has used up its wrong tokens for the window; checked before any token. */
export function refuseThrottledClient(client: string, now = Date.now()): void {
  const failures = failuresByClient.get(client);
  if (!failures || ended(failures, now) || failures.guesses.size < FAILED_LOGINS_ALLOWED) return;
  throw new TooManyFailedLogins(Math.max(1, Math.ceil((failures.since + FAILED_LOGIN_WINDOW_MS - now) / 1000)));
}

/** A wrong token from `client` (`guess`: its digest, in base64): counted in its window (a new window when the last one ended). */
export function countFailedLogin(client: string, guess: string, now = Date.now()): void {
  const failures = failuresByClient.get(client);
  const current = failures && !ended(failures, now) ? failures : { since: now, guesses: new Set<string>() };
  const guesses = new Set(current.guesses).add(guess.slice(0, 16));
  failuresByClient.set(client, { since: current.since, guesses }, now);
}
