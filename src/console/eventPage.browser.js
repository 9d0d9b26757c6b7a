// An event's page (#/events/{id}): its ids, its story as a timeline, its payload folded away.
import { api, NotFound } from "./api.browser.js";
import { $, el } from "./dom.browser.js";
import { storyOfEffect } from "./eventKeys.browser.js";
import { eventHref } from "./eventSearch.browser.js";
import { badge, timeline } from "./eventTimeline.browser.js";

/** A term and its value; a value that is an id of another event links to its page. */
function fact(term, value, href) {
  const row = el("div", undefined, { class: "fact" });
  const shown = el("dd");
  shown.append(href ? el("a", value, { href }) : (value ?? "–"));
  row.append(el("dt", term), shown);
  return row;
}

function ids(story) {
  const list = el("dl", undefined, { class: "facts", id: "event-ids" });
  list.append(
    fact("Type", `${story.kind} · ${story.type}`),
    fact("Workspace", story.workspace),
    fact("Channel", story.channel, story.channel ? `#/events?channel=${encodeURIComponent(story.channel)}` : undefined),
    fact("User", story.user, story.user ? `#/events?user=${encodeURIComponent(story.user)}` : undefined),
    fact("Thread", story.thread),
    fact("Shard", story.shard),
  );
  // A re-run's link to what it re-ran, and back (present once shards record re-runs).
  if (story.rerunOf) list.append(fact("Re-run of", story.rerunOf, eventHref(story.rerunOf, story.workspace)));
  for (const rerun of story.reruns ?? []) list.append(fact("Re-run", rerun, eventHref(rerun, story.workspace)));
  return list;
}

function payload(story) {
  const details = el("details", undefined, { id: "event-payload" });
  details.append(el("summary", "Payload"));
  details.append(
    story.payload === null || story.payload === undefined
      ? el("p", "Not kept (EVENT_PAYLOADS = none).", { class: "muted" })
      : el("pre", JSON.stringify(story.payload, null, 2)),
  );
  return details;
}

function show(story) {
  $("event-title").textContent = `Event ${story.id}`;
  $("event-status").replaceChildren(badge(story.status));
  $("event-message").textContent =
    story.unreachable?.length > 0 ? `Not answering: ${story.unreachable.join(", ")} (the story may be incomplete).` : "";
  $("event-body").replaceChildren(ids(story), timeline(story), payload(story));
}

function notFound(what, id = "") {
  // A message's twin event (message / app_mention) keyed by its message is kept under the first one's event_id only (docs/guides/operations.md).
  const hint = id.startsWith("Ev")
    ? " A message's second event (its message / app_mention twin), or one kept with EVENT_PAYLOADS=none, is not found by its event_id: search its channel or user."
    : "";
  $("event-message").textContent = `${what}: not found (unknown, or pruned with its receipt window).${hint}`;
}

/** The look-up asked last: an earlier one answering after it shows nothing (a link clicked, then another). */
let asked = 0;

/** While a look-up runs: its title, and nothing of the story shown before (another event's). */
function lookingUp(title) {
  asked += 1;
  $("event-title").textContent = title;
  $("event-status").replaceChildren();
  $("event-message").textContent = "Looking it up…";
  $("event-body").replaceChildren();
}

/** Shows the story of `id` (an event_id, a trigger_id, a `fact:` key), asked of `workspace`'s shards if given. */
export async function showEvent(id, workspace) {
  lookingUp(`Event ${id}`);
  const mine = asked;
  try {
    const query = workspace ? `?workspace=${encodeURIComponent(workspace)}` : "";
    const story = await api(`/admin/api/events/${encodeURIComponent(id)}${query}`);
    if (mine === asked) show(story);
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
    if (mine === asked) notFound(`Event ${id}`, id);
  }
}

/** Shows the story of the delivery whose effect `key` is (a parked row's link), and names its page. */
export async function showEffect(key, workspace) {
  lookingUp(`Effect ${key}`);
  const mine = asked;
  const story = await storyOfEffect(key, workspace);
  if (mine !== asked) return;
  if (story === null) return notFound(`The event of ${key}`);
  show(story);
  for (const item of document.querySelectorAll("#event-timeline [data-effect]"))
    item.classList.toggle("chosen", item.dataset.effect === key);
  history.replaceState(null, "", eventHref(story.id, story.workspace));
}
