// Parked effects: a page of them, more on request, and replay or discard — one row, or the whole fleet.
import { api, Refused } from "./api.browser.js";
import { $, el } from "./dom.browser.js";
import { number, time } from "./format.browser.js";
import { showSignIn } from "./session.browser.js";

let parkedCursor = null;
/** The console's refresh, handed in by wireParked (the refresh renders this panel: no import cycle). */
let refreshAfterAction = async () => {};

async function act(action, selection) {
  try {
    const answer = await api(`/admin/api/parked/${action}`, { method: "POST", body: JSON.stringify(selection) });
    const n = action === "replay" ? answer.replayed : answer.discarded;
    const missed = answer.unreachable.length > 0 ? ` ${answer.unreachable.length} shard(s) did not answer.` : "";
    $("status").textContent = `${action === "replay" ? "Replayed" : "Discarded"} ${n} effect${n === 1 ? "" : "s"}.${missed}`;
  } catch (error) {
    if (error instanceof Refused) return showSignIn(error.message);
    $("status").textContent = `${action === "replay" ? "Replay" : "Discard"} failed: ${error.message}`;
    return;
  }
  await refreshAfterAction(false);
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
    el("td", row.key, { class: "key" }),
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

/** The panel's buttons; `refresh(updateStatus)` redraws the console after a replay or discard. */
export function wireParked(refresh) {
  refreshAfterAction = refresh;
  $("parked-more").addEventListener("click", async () => {
    if (parkedCursor) renderParked(await api(`/admin/api/parked?limit=50&cursor=${encodeURIComponent(parkedCursor)}`), true);
  });
  $("replay-all").addEventListener("click", () => {
    if (confirm("Replay every parked effect in the fleet?")) act("replay", { all: true });
  });
  $("discard-all").addEventListener("click", () => {
    if (confirm("Discard every parked effect in the fleet, for good?")) act("discard", { all: true });
  });
}
