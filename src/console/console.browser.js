// The operations console's script (docs/guides/operations.md "Operations console"), served at
// /admin/assets/console.js: plain browser ES modules, no build step, each served under its own file
// name from /admin/assets/. page.html loads this one as a module before uPlot's classic deferred
// script, and a module's whole graph runs before the next deferred script: format.browser.js has
// made the browser's language one Intl accepts by the time uPlot loads.
import { $ } from "./dom.browser.js";
import { wireParked } from "./parked.browser.js";
import { refresh } from "./refresh.browser.js";
import { route, wireRoutes } from "./routes.browser.js";
import { keepToken, showSignIn } from "./session.browser.js";

$("sign-in-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  keepToken($("token").value.trim());
  $("token").value = "";
  await refresh();
  await route();
});

$("sign-out").addEventListener("click", () => showSignIn());

wireParked(refresh);
wireRoutes();

// After every deferred script, uPlot included, has run.
document.addEventListener("DOMContentLoaded", async () => {
  await refresh();
  await route();
});
