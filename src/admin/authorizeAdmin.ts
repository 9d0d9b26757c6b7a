import { Rejection } from "../errors";

const encoder = new TextEncoder();

async function digest(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", encoder.encode(text));
}

/**
 * `/admin/*` needs `Authorization: Bearer $ADMIN_TOKEN`. Without ADMIN_TOKEN the API does not
 * exist (404). Digests are compared with timingSafeEqual, so the check leaks neither the
 * token nor its length.
 */
export async function authorizeAdmin(request: Request, adminToken: string | undefined): Promise<void> {
  if (!adminToken) throw new Rejection(404, "admin API disabled: set ADMIN_TOKEN to enable it");
  const presented = request.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1];
  if (!presented) throw new Rejection(401, "missing bearer token");
  const [expected, actual] = await Promise.all([digest(adminToken), digest(presented)]);
  if (!crypto.subtle.timingSafeEqual(expected, actual)) throw new Rejection(401, "invalid bearer token");
}
