// The console's views by the address's hash: the dashboard (no hash), a search's deliveries
// (#/events?channel=…), an event's page (#/events/{id}), a parked effect's event (#/effects/{key}?workspace=…).
// A hash is a bookmark and the back button, and never reaches the server.
import { Refused } from "./api.browser.js";
import { $ } from "./dom.browser.js";
import { showEventList } from "./eventList.browser.js";
import { showEffect, showEvent } from "./eventPage.browser.js";
import { searchRoute } from "./eventSearch.browser.js";
import { showSignIn, token } from "./session.browser.js";

const VIEWS = ["dashboard", "event-list", "event-page"];

function view(shown) {
  for (const id of VIEWS) $(id).hidden = id !== shown;
  // Charts drawn while their panel was hidden took the narrowest width: they follow the panel again.
  if (shown === "dashboard") window.dispatchEvent(new Event("resize"));
}

/** The hash as a path (its segments decoded) and its query. */
function parsed() {
  const [path, query = ""] = location.hash.replace(/^#/, "").split("?");
  return { segments: path.split("/").filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(query) };
}

/** The search box says what the view shows: a link followed, or the back button, changes both. */
function boxShows() {
  const { segments, params } = parsed();
  const words = [...params]
    .filter(([name]) => name !== "limit")
    .map(([name, value]) => (["channel", "user", "workspace"].includes(name) ? value : `${name}:${value}`));
  $("event-search").elements.q.value = segments[1] ?? words.join(" ");
}

/** Shows the view the hash names (once signed in). */
export async function route() {
  if (!token()) return;
  try {
    // A malformed escape in a hand-typed hash throws here: said in the status line below.
    const { segments, params } = parsed();
    const [first, id] = segments;
    boxShows();
    if (first === "events" && id !== undefined) {
      view("event-page");
      await showEvent(id, params.get("workspace"));
    } else if (first === "effects" && id !== undefined) {
      view("event-page");
      await showEffect(id, params.get("workspace"));
      // Its event's page has the address now: the box says its id.
      boxShows();
    } else if (first === "events" && [...params.keys()].length > 0) {
      view("event-list");
      await showEventList(params);
    } else view("dashboard");
  } catch (error) {
    if (error instanceof Refused) return showSignIn(error.message);
    $("status").textContent = `Look-up failed: ${error.message}`;
  }
}

/** The search box, the event page's reload, and the hash's changes (links, back, forward). */
export function wireRoutes() {
  $("event-search").addEventListener("submit", (event) => {
    event.preventDefault();
    const hash = searchRoute($("event-search").elements.q.value);
    if (hash === null) return;
    // The same hash fires no hashchange: look it up again all the same.
    if (hash === location.hash) route();
    else location.hash = hash;
  });
  $("event-reload").addEventListener("click", () => route());
  window.addEventListener("hashchange", () => route());
}
