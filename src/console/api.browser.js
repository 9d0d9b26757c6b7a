// The admin API, called with the tab's token.
import { token } from "./session.browser.js";

/** The token was refused (401), or the address is throttled (429): the caller shows the sign-in again. */
export class Refused extends Error {}

/** 404 from the look-up API: an event unknown, or pruned with its receipt window. */
export class NotFound extends Error {}

/** `path`'s JSON; null for /admin/installations… where the coordinator has no installations (404). */
export async function api(path, init = {}) {
  const response = await fetch(path, {
    ...init,
    headers: { ...(init.headers ?? {}), authorization: `Bearer ${token()}`, "content-type": "application/json" },
  });
  if (response.status === 401) throw new Refused("The admin token was refused.");
  // Too many wrong tokens from this address (docs/guides/operations.md "Admin token"): sign in again after the wait.
  if (response.status === 429)
    throw new Refused(`Too many wrong tokens: try again in ${response.headers.get("retry-after") ?? "60"} s.`);
  if (response.status === 404 && path.startsWith("/admin/installations")) return null;
  if (response.status === 404) throw new NotFound((await response.text()).slice(0, 200));
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return response.json();
}
