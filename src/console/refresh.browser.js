// Every panel from one round of API calls, every 10 seconds while signed in.
import { api, Refused } from "./api.browser.js";
import { renderBucketChanges } from "./buckets.browser.js";
import { renderCards } from "./cards.browser.js";
import { renderCharts } from "./charts.browser.js";
import { $ } from "./dom.browser.js";
import { LOCALE } from "./format.browser.js";
import { renderAlerts, renderGuard } from "./guard.browser.js";
import { renderInstallations } from "./installations.browser.js";
import { renderParked } from "./parked.browser.js";
import { showConsole, showSignIn, token } from "./session.browser.js";
import { renderShards } from "./shards.browser.js";

const REFRESH_MS = 10_000;
const MINUTES = 60;

let timer;

export async function refresh(updateStatus = true) {
  clearTimeout(timer);
  if (!token()) return showSignIn();
  try {
    const [overview, parked, installations] = await Promise.all([
      api(`/admin/api/overview?minutes=${MINUTES}`),
      api("/admin/api/parked?limit=50"),
      api("/admin/installations?limit=100"),
    ]);
    showConsole();
    renderCards(overview);
    renderCharts(overview);
    renderGuard(overview.guard);
    renderAlerts(overview.alerts);
    renderShards(overview.shards);
    renderBucketChanges(overview.buckets);
    renderParked(parked, false);
    renderInstallations(installations);
    const unreachable = [...new Set([...overview.unreachable, ...parked.unreachable])];
    if (updateStatus)
      $("status").textContent =
        `Updated ${new Date().toLocaleTimeString(LOCALE)} · every ${REFRESH_MS / 1000} s` +
        (unreachable.length > 0 ? ` · not answering: ${unreachable.join(", ")}` : "");
  } catch (error) {
    if (error instanceof Refused) return showSignIn(error.message);
    $("status").textContent = `Refresh failed: ${error.message}`;
  }
  timer = setTimeout(refresh, REFRESH_MS);
}
