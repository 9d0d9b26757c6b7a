// The operations console's script (docs/guides/operations.md "Operations console"), served at /admin/assets/console.js.
// Plain browser JavaScript, no build step. Every value shown comes from outside (Slack's answers,
// a relay backend's errors), so text only ever goes into the page through textContent.

const TOKEN_KEY = "coordinator-admin-token";
const REFRESH_MS = 10_000;
const MINUTES = 60;

const $ = (id) => document.getElementById(id);

/** An element with text (never HTML) and attributes. */
function el(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** `tag` as Intl takes it, or undefined where Intl refuses it (a RangeError). */
function accepted(tag) {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

// Chromium under LANG=C.UTF-8 reports "en-US@posix", which every Intl formatter refuses with a
// RangeError — uPlot's too, built from navigator.language as it loads (page.html runs this script
// first). Such a name's language and region ("en-US") stand in for it, else "en-US".
const BROWSER_LOCALE = accepted(navigator.language);
const LOCALE = BROWSER_LOCALE ?? accepted(String(navigator.language).split(/[.@]/)[0].replace(/_/g, "-")) ?? "en-US";
if (BROWSER_LOCALE === undefined) {
  console.warn(`The browser's language ${JSON.stringify(navigator.language)} is not a language tag; formatting for ${LOCALE}.`);
  Object.defineProperty(navigator, "language", { value: LOCALE, configurable: true });
}

const number = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString(LOCALE));
const ms = (n) => (n === null || n === undefined ? "–" : n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)} s` : `${n} ms`);
const age = (n) =>
  n === null || n === undefined ? "–" : n < 60_000 ? `${Math.round(n / 1000)} s` : `${Math.round(n / 60_000)} min`;
const time = (at) => new Date(at).toLocaleString(LOCALE);

class Refused extends Error {}

async function api(path, init = {}) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const response = await fetch(path, {
    ...init,
    headers: { ...(init.headers ?? {}), authorization: `Bearer ${token}`, "content-type": "application/json" },
  });
  if (response.status === 401) throw new Refused("The admin token was refused.");
  if (response.status === 404 && path.startsWith("/admin/installations")) return null;
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return response.json();
}

// ── Sign-in ──────────────────────────────────────────────────────────────────────────────────

function showSignIn(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  $("console").hidden = true;
  $("sign-out").hidden = true;
  $("sign-in").hidden = false;
  $("sign-in-error").textContent = message ?? "";
  $("status").textContent = "";
}

function showConsole() {
  $("sign-in").hidden = true;
  $("console").hidden = false;
  $("sign-out").hidden = false;
}

$("sign-in-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
  $("token").value = "";
  await refresh();
});

$("sign-out").addEventListener("click", () => showSignIn());

// ── Rendering ────────────────────────────────────────────────────────────────────────────────

function renderCards(overview) {
  const { totals, shards, guard } = overview;
  const pending = shards.reduce((sum, s) => sum + s.outboxPending, 0);
  const parked = shards.reduce((sum, s) => sum + s.outboxParked, 0);
  const cards = [
    ["Accepted", number(totals.accepted), "events, last hour"],
    ["Delivered", number(totals.delivered), "effects, last hour"],
    ["Retried", number(totals.retried), "attempts, last hour"],
    ["Pending now", number(pending), "in the outboxes", pending > 0 && shards.some((s) => s.oldestPendingAgeMs > 60_000)],
    ["Parked now", number(parked), "wait for an operator", parked > 0],
    ["Ack p99", ms(totals.ack.p99), "edge to commit"],
    ["Delivery p99", ms(totals.delivery.p99), "record to delivered"],
    [
      "Failed answers",
      guard.answered === 0 ? "–" : `${Math.round(guard.ratio * 100)} %`,
      `of ${number(guard.answered)} to Slack, 60 min`,
      guard.ratio > 0.5,
    ],
  ];
  const box = $("cards");
  box.replaceChildren(
    ...cards.map(([label, value, hint, bad]) => {
      const card = el("div", undefined, { class: bad ? "card bad" : "card", "data-card": label });
      card.append(el("div", value, { class: "value" }), el("div", `${label} · ${hint}`, { class: "label" }));
      return card;
    }),
  );
}

const charts = {};

function chart(id, series, data, points) {
  const box = $(id);
  const width = Math.max(240, box.clientWidth);
  if (!charts[id]) {
    if (typeof uPlot !== "function") return;
    charts[id] = new uPlot(
      {
        width,
        height: 200,
        // Latency has gaps (minutes without samples): points, so a lone minute still shows.
        series: [{}, ...series.map(([label, stroke]) => ({ label, stroke, width: 2, points: { show: points, size: 5 } }))],
        axes: [{}, { size: 50 }],
        legend: { live: false },
      },
      data,
      box,
    );
  } else {
    charts[id].setSize({ width, height: 200 });
    charts[id].setData(data);
  }
}

// Charts follow their panel's width (a phone turned, a window resized).
window.addEventListener("resize", () => {
  for (const [id, plot] of Object.entries(charts)) plot.setSize({ width: Math.max(240, $(id).clientWidth), height: 200 });
});

function renderCharts(overview) {
  const xs = overview.series.map((point) => point.at / 1000);
  chart(
    "chart-throughput",
    [
      ["accepted", "#2f6fde"],
      ["delivered", "#1e8e3e"],
      ["retried", "#e37400"],
      ["parked", "#c5221f"],
    ],
    [xs, ...["accepted", "delivered", "retried", "parked"].map((name) => overview.series.map((point) => point[name]))],
    false,
  );
  chart(
    "chart-latency",
    [
      ["ack p50", "#9bb8ef"],
      ["ack p99", "#2f6fde"],
      ["delivery p50", "#8fd19e"],
      ["delivery p99", "#1e8e3e"],
    ],
    [
      xs,
      ...[
        ["ack", "p50"],
        ["ack", "p99"],
        ["delivery", "p50"],
        ["delivery", "p99"],
      ].map(([latency, percentile]) => overview.series.map((point) => point[latency][percentile])),
    ],
    true,
  );
}

function renderAlerts(alerts) {
  const list = $("failing");
  list.replaceChildren(
    ...alerts.failing.map((streak) =>
      el(
        "li",
        `${streak.label}: ${streak.failures} consecutive failed attempt${streak.failures === 1 ? "" : "s"}, last ${time(streak.lastFailedAt)} — ${streak.lastError ?? "unknown error"}`,
      ),
    ),
  );
  $("failing-none").hidden = alerts.failing.length > 0;
  $("alerts-sent").textContent = alerts.alertsSent
    ? alerts.guard.alerting
      ? "The guard is alerting: too many answers to Slack failed."
      : "Alerts go to ALERT_WEBHOOK_URL."
    : "ALERT_WEBHOOK_URL is not set: alerts are only logged.";
}

function renderGuard(guard) {
  const causes = Object.entries(guard.by_cause)
    .map(([cause, n]) => `${cause}: ${n}`)
    .join(", ");
  $("guard").textContent =
    guard.answered === 0
      ? "No answers to Slack counted in the last 60 minutes (each Worker instance sends its counts within 10 seconds)."
      : `${number(guard.answered)} answered, ${number(guard.failed)} failed (${Math.round(guard.ratio * 1000) / 10} %)${causes ? ` — ${causes}` : ""}. Slack disables event subscriptions above 95 % within 60 minutes.`;
}

let shardSort = { key: "outboxPending", descending: true };
let lastShards = [];

function shardValue(shard, key) {
  if (key === "ackP99") return shard.ack.p99 ?? -1;
  if (key === "deliveryP99") return shard.delivery.p99 ?? -1;
  return shard[key] ?? -1;
}

function renderShards(shards) {
  lastShards = shards;
  const { key, descending } = shardSort;
  const sorted = [...shards].sort((a, b) => {
    const [x, y] = [shardValue(a, key), shardValue(b, key)];
    const order = typeof x === "string" ? x.localeCompare(y) : x - y;
    return descending ? -order : order;
  });
  $("shards")
    .querySelector("tbody")
    .replaceChildren(
      ...sorted.map((shard) => {
        const row = el("tr", undefined, { "data-shard": shard.shard });
        row.append(
          el("td", shard.shard),
          el("td", number(shard.accepted), { class: "num" }),
          el("td", number(shard.delivered), { class: "num" }),
          el("td", number(shard.retried), { class: "num" }),
          el("td", number(shard.outboxPending), { class: "num" }),
          el("td", age(shard.oldestPendingAgeMs), { class: "num" }),
          el("td", number(shard.outboxParked), { class: "num" }),
          el("td", ms(shard.ack.p99), { class: "num" }),
          el("td", ms(shard.delivery.p99), { class: "num" }),
        );
        return row;
      }),
    );
  for (const th of $("shards").querySelectorAll("th[data-key]")) {
    th.classList.toggle("sorted", th.dataset.key === key);
    th.classList.toggle("ascending", th.dataset.key === key && !descending);
  }
}

for (const th of document.querySelectorAll("#shards th[data-key]")) {
  th.addEventListener("click", () => {
    const key = th.dataset.key;
    shardSort = { key, descending: shardSort.key === key ? !shardSort.descending : true };
    renderShards(lastShards);
  });
}

let parkedCursor = null;

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

function renderParked(page, append) {
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

$("parked-more").addEventListener("click", async () => {
  if (parkedCursor) renderParked(await api(`/admin/api/parked?limit=50&cursor=${encodeURIComponent(parkedCursor)}`), true);
});

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
  await refresh(false);
}

$("replay-all").addEventListener("click", () => {
  if (confirm("Replay every parked effect in the fleet?")) act("replay", { all: true });
});
$("discard-all").addEventListener("click", () => {
  if (confirm("Discard every parked effect in the fleet, for good?")) act("discard", { all: true });
});

function renderInstallations(page) {
  $("installations-panel").hidden = page === null;
  if (page === null) return;
  $("installations")
    .querySelector("tbody")
    .replaceChildren(
      ...page.installations.map((installation) => {
        const row = el("tr");
        row.append(
          el("td", installation.id),
          el("td", installation.teamName ?? installation.enterpriseName ?? ""),
          el("td", installation.status),
          el("td", time(installation.installedAt)),
        );
        return row;
      }),
    );
}

// ── Refresh ──────────────────────────────────────────────────────────────────────────────────

let timer;

async function refresh(updateStatus = true) {
  clearTimeout(timer);
  if (!sessionStorage.getItem(TOKEN_KEY)) return showSignIn();
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

// After every deferred script, uPlot included, has run.
document.addEventListener("DOMContentLoaded", () => refresh());
