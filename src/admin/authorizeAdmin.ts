import { toBase64 } from "../platform/base64";
import { InvalidSetting, Rejection } from "../platform/errors";
import { noteFailedLogin } from "./failedLogins";
import { countFailedLogin, loginClient, refuseThrottledClient } from "./loginThrottle";

/** A shorter ADMIN_TOKEN could be guessed: the admin API refuses to run with one. */
export const ADMIN_TOKEN_MIN_LENGTH = 16;

const encoder = new TextEncoder();

async function digest(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", encoder.encode(text));
}

/**
 * `/admin/*` needs `Authorization: Bearer $ADMIN_TOKEN`. Without ADMIN_TOKEN the API does not
 * exist (404); with one shorter than ADMIN_TOKEN_MIN_LENGTH it is a configuration error for every
 * request, the right bearer included. Digests are compared with timingSafeEqual, so the check
 * leaks neither the token nor its length. Refusals are logged, a minute's worth in one line. A client
 * (CF-Connecting-IP) that presented FAILED_LOGINS_ALLOWED different wrong tokens within a minute gets 429 with
 * Retry-After, before its token is looked at, until that minute ends (loginThrottle.ts).
 */
export async function authorizeAdmin(request: Request, adminToken: string | undefined): Promise<void> {
  if (!adminToken) throw new Rejection(404, "admin API disabled: set ADMIN_TOKEN to enable it");
  if (adminToken.length < ADMIN_TOKEN_MIN_LENGTH)
    throw new InvalidSetting(
      "ADMIN_TOKEN",
      `must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters (e.g. \`openssl rand -hex 32\`); /admin/* is refused until it is`,
    );
  const client = loginClient(request);
  try {
    refuseThrottledClient(client);
  } catch (throttled) {
    noteFailedLogin(request, "too many failed logins");
    throw throttled;
  }
  const presented = request.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1];
  if (presented) {
    const [expected, guess] = await Promise.all([digest(adminToken), digest(presented)]);
    if (crypto.subtle.timingSafeEqual(expected, guess)) return;
    // The digest, never the token, names the guess: the same wrong token again is one guess.
    countFailedLogin(client, toBase64(new Uint8Array(guess)));
  }
  const reason = presented ? "invalid bearer token" : "missing bearer token";
  noteFailedLogin(request, reason);
  throw new Rejection(401, reason);
}
