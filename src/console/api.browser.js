// The admin API, called with the tab's token.
import { token } from "./session.browser.js";

/** The token was refused (401): the caller shows the sign-in again. */
export class Refused extends Error {}

/** `path`'s JSON; null for /admin/installations… where the coordinator has no installations (404). */
export async function api(path, init = {}) {
  const response = await fetch(path, {
    ...init,
    headers: { ...(init.headers ?? {}), authorization: `Bearer ${token()}`, "content-type": "application/json" },
  });
  if (response.status === 401) throw new Refused("The admin token was refused.");
  if (response.status === 404 && path.startsWith("/admin/installations")) return null;
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return response.json();
}
