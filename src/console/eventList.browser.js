// The deliveries a search matched (#/events?channel=…&user=…&workspace=…): newest first, a page
// at a time, each linking to its event page.
import { api, Refused } from "./api.browser.js";
import { $, el } from "./dom.browser.js";
import { eventHref } from "./eventSearch.browser.js";
import { badge } from "./eventTimeline.browser.js";
import { number, time } from "./format.browser.js";
import { showSignIn } from "./session.browser.js";

const LIMIT = 50;
let listed = { filter: "", cursor: null };

function eventRow(event) {
  const row = el("tr", undefined, { "data-event": event.id });
  const link = el("td", undefined, { class: "key" });
  link.append(el("a", event.id, { href: eventHref(event.id, event.workspace) }));
  const attempts = event.effects.reduce((sum, effect) => sum + (effect.attempts ?? 0), 0);
  const lastError = event.effects.map((effect) => effect.lastError).find(Boolean) ?? "";
  const status = el("td");
  status.append(badge(event.status));
  row.append(
    el("td", time(event.receivedAt)),
    link,
    el("td", event.type),
    el("td", event.workspace),
    el("td", event.channel ?? ""),
    el("td", event.user ?? ""),
    status,
    el("td", number(event.effects.length), { class: "num" }),
    el("td", number(attempts), { class: "num" }),
    el("td", lastError, { class: "wrap error-text" }),
  );
  return row;
}

async function page(append) {
  const cursor = append && listed.cursor ? `&cursor=${encodeURIComponent(listed.cursor)}` : "";
  const asked = listed;
  const answer = await api(`/admin/api/events?${listed.filter}${cursor}`);
  // A search typed while this page was on its way has replaced `listed`: this answer is not its.
  if (asked !== listed) return;
  const body = $("event-list").querySelector("tbody");
  const rows = answer.events.map(eventRow);
  if (append) body.append(...rows);
  else body.replaceChildren(...rows);
  if (!append && rows.length === 0) {
    const empty = el("tr");
    empty.append(el("td", "No delivery matches in the receipt window.", { colspan: "10", class: "muted" }));
    body.append(empty);
  }
  listed.cursor = answer.cursor;
  $("event-list-more").hidden = answer.cursor === null;
  $("event-list-message").textContent =
    answer.unreachable.length > 0 ? `Not answering: ${answer.unreachable.join(", ")} (their deliveries are missing).` : "";
}

/** Lists the deliveries `params` (channel, user, workspace, status, …) match, the first page. */
export async function showEventList(params) {
  const words = [...params].filter(([name]) => name !== "limit").map(([name, value]) => `${name} ${value}`);
  $("event-list-title").textContent = `Deliveries matching ${words.join(", ")}`;
  // A page's size: LIMIT unless the address says (#/events?…&limit=n).
  if (!params.has("limit")) params.set("limit", String(LIMIT));
  listed = { filter: params.toString(), cursor: null };
  // Nothing of the last search shows while this one runs.
  $("event-list").querySelector("tbody").replaceChildren();
  $("event-list-more").hidden = true;
  $("event-list-message").textContent = "Looking them up…";
  await page(false);
}

$("event-list-more").addEventListener("click", () =>
  page(true).catch((error) => {
    if (error instanceof Refused) return showSignIn(error.message);
    $("event-list-message").textContent = `More failed: ${error.message}`;
  }),
);
