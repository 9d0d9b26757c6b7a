// Parked effects: a page of them, more on request, and replay or discard — one row, those a filter
// matches, or the whole fleet; a filter or the fleet is counted first (a dry run), then confirmed by its count.
import { api, Refused } from "./api.browser.js";
import { $, el } from "./dom.browser.js";
import { number, time } from "./format.browser.js";
import { showSignIn } from "./session.browser.js";

/** The shard that delivers alerts (src/rpc/watch.ts): its parked rows are alerts, not events. */
const WATCH = "watch";
let parkedCursor = null;
/** The console's refresh, handed in by wireParked (the refresh renders this panel: no import cycle). */
let refreshAfterAction = async () => {};

const missed = (answer) => (answer.unreachable.length > 0 ? ` ${answer.unreachable.length} shard(s) did not answer.` : "");

async function act(action, selection) {
  try {
    const answer = await api(`/admin/api/parked/${action}`, { method: "POST", body: JSON.stringify(selection) });
    const n = action === "replay" ? answer.replayed : answer.discarded;
    const more = answer.complete === false ? " More may match: run it again." : "";
    $("status").textContent =
      `${action === "replay" ? "Replayed" : "Discarded"} ${n} effect${n === 1 ? "" : "s"}.${more}${missed(answer)}`;
  } catch (error) {
    if (error instanceof Refused) return showSignIn(error.message);
    $("status").textContent = `${action === "replay" ? "Replay" : "Discard"} failed: ${error.message}`;
    return;
  }
  await refreshAfterAction(false);
}

/** The row's key, linking to its event's page (#/effects/…: the page finds the event the key names); the watch's alerts have none. */
function keyCell(row) {
  const cell = el("td", undefined, { class: "key" });
  if (row.shard === WATCH) cell.append(row.key);
  else
    cell.append(
      el("a", row.key, { href: `#/effects/${encodeURIComponent(row.key)}?workspace=${encodeURIComponent(row.workspace)}` }),
    );
  return cell;
}

function parkedRow(row) {
  const tr = el("tr", undefined, { "data-key": row.key });
  const actions = el("td", undefined, { class: "actions" });
  const replay = el("button", "Replay", { type: "button", class: "small secondary" });
  replay.addEventListener("click", () => act("replay", { shard: row.shard, keys: [row.key] }));
  const discard = el("button", "Discard", { type: "button", class: "small danger" });
  discard.addEventListener("click", () => {
    if (confirm(`Discard ${row.key} for good?`)) act("discard", { shard: row.shard, keys: [row.key] });
  });
  actions.append(replay, " ", discard);
  tr.append(
    el("td", time(row.parkedAt)),
    el("td", row.shard),
    keyCell(row),
    el("td", row.effect),
    el("td", number(row.attempts), { class: "num" }),
    el("td", row.lastError ?? "", { class: "wrap error-text" }),
    actions,
  );
  return tr;
}

export function renderParked(page, append) {
  const body = $("parked").querySelector("tbody");
  const rows = page.parked.map(parkedRow);
  if (append) body.append(...rows);
  else body.replaceChildren(...rows);
  if (!append && page.parked.length === 0) {
    const empty = el("tr");
    empty.append(el("td", "Nothing is parked.", { colspan: "7", class: "muted" }));
    body.append(empty);
  }
  parkedCursor = page.cursor;
  $("parked-more").hidden = page.cursor === null;
}

/** The filter form's fields as the API takes them (its times are the browser's local time); {} when empty. */
function filterOf() {
  const form = $("parked-filter");
  const filter = {};
  for (const name of ["workspace", "effect", "method", "error"]) {
    const value = form.elements[name].value.trim();
    if (value) filter[name] = value;
  }
  for (const name of ["since", "until"]) {
    const value = form.elements[name].value;
    if (value) filter[name] = new Date(value).toISOString();
  }
  return filter;
}

/** The filter's selection and its words; no filter is the whole fleet. */
function selected() {
  const filter = filterOf();
  const words = Object.entries(filter).map(([name, value]) => `${name} ${value}`);
  return words.length === 0
    ? { selection: { all: true }, what: "in the fleet" }
    : { selection: filter, what: `matching ${words.join(", ")}` };
}

/** A dry run: how many parked effects the selection matches, shown; null when it failed. */
async function count(action, { selection, what }) {
  try {
    const answer = await api(`/admin/api/parked/${action}`, {
      method: "POST",
      body: JSON.stringify({ ...selection, dryRun: true }),
    });
    const n = answer.matched;
    const counted = `${answer.complete === false ? "at least " : ""}${number(n)} parked effect${n === 1 ? "" : "s"} ${what}`;
    $("parked-count").textContent = `${counted}.${missed(answer)}`;
    return { n, counted };
  } catch (error) {
    if (error instanceof Refused) showSignIn(error.message);
    else $("parked-count").textContent = `Count failed: ${error.message}`;
    return null;
  }
}

/** Counts first, then asks naming the count, then replays or discards the same selection. */
async function countThenAct(action, chosen) {
  const counted = await count(action, chosen);
  if (!counted || counted.n === 0) return;
  const verb = action === "replay" ? "Replay" : "Discard, for good,";
  if (confirm(`${verb} ${counted.counted}?`)) await act(action, chosen.selection);
}

/** The panel's buttons; `refresh(updateStatus)` redraws the console after a replay or discard. */
export function wireParked(refresh) {
  refreshAfterAction = refresh;
  $("parked-more").addEventListener("click", async () => {
    if (parkedCursor) renderParked(await api(`/admin/api/parked?limit=50&cursor=${encodeURIComponent(parkedCursor)}`), true);
  });
  const fleet = { selection: { all: true }, what: "in the fleet" };
  $("replay-all").addEventListener("click", () => countThenAct("replay", fleet));
  $("discard-all").addEventListener("click", () => countThenAct("discard", fleet));
  $("parked-filter").addEventListener("submit", (event) => {
    event.preventDefault();
    count("replay", selected());
  });
  $("replay-matching").addEventListener("click", () => countThenAct("replay", selected()));
  $("discard-matching").addEventListener("click", () => countThenAct("discard", selected()));
}
