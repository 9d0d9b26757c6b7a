import uplotScript from "uplot/dist/uPlot.iife.min.js";
import uplotStyle from "uplot/dist/uPlot.min.css";
import api from "./api.browser.js";
import buckets from "./buckets.browser.js";
import cards from "./cards.browser.js";
import charts from "./charts.browser.js";
import script from "./console.browser.js";
import style from "./console.css";
import dom from "./dom.browser.js";
import eventKeys from "./eventKeys.browser.js";
import eventList from "./eventList.browser.js";
import eventPage from "./eventPage.browser.js";
import eventSearch from "./eventSearch.browser.js";
import eventStyle from "./events.css";
import eventTimeline from "./eventTimeline.browser.js";
import format from "./format.browser.js";
import guard from "./guard.browser.js";
import installations from "./installations.browser.js";
import page from "./page.html";
import parked from "./parked.browser.js";
import refresh from "./refresh.browser.js";
import routes from "./routes.browser.js";
import session from "./session.browser.js";
import shards from "./shards.browser.js";

/**
 * The operations console's page and assets (docs/guides/operations.md "Operations console"), bundled as text and
 * served by the Worker itself: no CDN, no other origin. They carry no data, so they need no token;
 * every data request the page makes does. The CSP allows only this origin's scripts, styles and
 * API — no inline script — so a hostile string that reached the page could not run. The script is
 * ES modules: their imports are fetches from this origin, which `script-src 'self'` already allows.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SCRIPT = "text/javascript; charset=utf-8";

/** The modules console.js imports, each under the file name the others import it by. */
const MODULES: Record<string, string> = {
  "api.browser.js": api,
  "buckets.browser.js": buckets,
  "cards.browser.js": cards,
  "charts.browser.js": charts,
  "dom.browser.js": dom,
  "eventKeys.browser.js": eventKeys,
  "eventList.browser.js": eventList,
  "eventPage.browser.js": eventPage,
  "eventSearch.browser.js": eventSearch,
  "eventTimeline.browser.js": eventTimeline,
  "format.browser.js": format,
  "guard.browser.js": guard,
  "installations.browser.js": installations,
  "parked.browser.js": parked,
  "refresh.browser.js": refresh,
  "routes.browser.js": routes,
  "session.browser.js": session,
  "shards.browser.js": shards,
};

const ASSETS: Record<string, { body: string; type: string }> = {
  "console.js": { body: script, type: SCRIPT },
  ...Object.fromEntries(Object.entries(MODULES).map(([name, body]) => [name, { body, type: SCRIPT }])),
  "console.css": { body: style, type: "text/css; charset=utf-8" },
  "events.css": { body: eventStyle, type: "text/css; charset=utf-8" },
  "uPlot.iife.min.js": { body: uplotScript, type: SCRIPT },
  "uPlot.min.css": { body: uplotStyle, type: "text/css; charset=utf-8" },
};

function served(body: string, type: string, cacheControl: string): Response {
  return new Response(body, {
    headers: {
      "content-type": type,
      "content-security-policy": CONTENT_SECURITY_POLICY,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": cacheControl,
    },
  });
}

/** GET /admin: the page (404 while ADMIN_TOKEN is unset: there is no API for it to read). */
export function consolePage(adminToken: string | undefined): Response {
  if (!adminToken) return new Response("admin API disabled: set ADMIN_TOKEN to enable it", { status: 404 });
  return served(page, "text/html; charset=utf-8", "no-cache");
}

/** GET /admin/assets/{name}: the page's script and its modules, style and charting library. */
export function consoleAsset(name: string, adminToken: string | undefined): Response {
  // Own names only: `__proto__`, `constructor` or `toString` are the object's, not assets.
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!adminToken || !asset) return new Response("not found", { status: 404 });
  return served(asset.body, asset.type, "public, max-age=300");
}
