// An event's story as a timeline: received → recorded → each effect, its attempts with their Slack
// calls, and where it ended (docs/guides/operations.md "An event's story"). Text only, never HTML.
import { el } from "./dom.browser.js";
import { clock, ms, number, time } from "./format.browser.js";

/** A status as a class name may carry it, whatever the shard answered. */
const known = (status) => (/^[a-z_]+$/.test(String(status)) ? status : "unknown");

/** A status as a badge. */
export function badge(status) {
  return el("span", status, { class: `badge status-${known(status)}`, "data-status": known(status) });
}

/** One step of the timeline: a dot, a title (text, or text and badges), then what it holds. */
function step(kind, title, ...content) {
  const item = el("li", undefined, { class: `step step-${kind}` });
  const heading = el("div", undefined, { class: "step-title" });
  heading.append(...[title].flat());
  item.append(heading, ...content);
  return item;
}

/** Attempts a row keeps, its last ones (KEPT_ATTEMPTS, src/recording/outboxRows.ts). */
const KEPT_ATTEMPTS = 10;

const line = (text, attributes = {}) => el("p", text, { class: "step-line", ...attributes });

function callsTable(calls, moreCalls) {
  const table = el("table", undefined, { class: "calls" });
  const head = el("tr");
  for (const name of ["Slack call", "Answer", "ts", "ms"]) head.append(el("th", name, name === "ms" ? { class: "num" } : {}));
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const call of calls) {
    const row = el("tr", undefined, { class: call.ok ? "call ok" : "call failed" });
    const found = call.foundByLookup ? " (found by look-up)" : "";
    row.append(
      el("td", `${call.method}${found}`, { class: "method" }),
      el("td", call.ok ? "ok" : (call.error ?? "error"), { class: call.ok ? "good-text" : "wrap error-text" }),
      el("td", call.ts ?? "", { class: "ts" }),
      el("td", number(call.ms), { class: "num" }),
    );
    table.tBodies[0].append(row);
  }
  const box = el("div", undefined, { class: "scroll" });
  box.append(table);
  if (moreCalls > 0) box.append(line(`and ${number(moreCalls)} more call${moreCalls === 1 ? "" : "s"} (the first 20 are kept)`));
  return box;
}

function attemptStep(attempt, n) {
  const took = attempt.end >= attempt.start ? ` (${ms(attempt.end - attempt.start)})` : "";
  const item = step("attempt", [`Attempt ${n} · ${clock(attempt.start)} → ${clock(attempt.end)}${took}`, badge(attempt.outcome)]);
  if (attempt.outcome === "lease_lost")
    item.append(line("Lease lost: it ran past its lease, and a later attempt took the row over.", { class: "step-line warn" }));
  if (attempt.error) item.append(line(attempt.error, { class: "step-line wrap error-text" }));
  const calls = attempt.calls ?? [];
  item.append(calls.length > 0 ? callsTable(calls, attempt.moreCalls) : line("No Slack call.", { class: "step-line muted" }));
  return item;
}

/** What a suspended run waits for: a person's click on its question, or its timer. */
function waitingStep(waiting) {
  const what = waiting.kind === "action" ? `a click on its question "${waiting.name}"` : `its timer "${waiting.name}"`;
  const item = step("waiting", `Waits for ${what} until ${time(waiting.deadline)}`);
  if (waiting.kind === "action") {
    const who = waiting.from?.length ? `answered by ${waiting.from.join(", ")}` : "answered by anyone in the channel";
    const since = waiting.since ? `, since ${time(waiting.since)}` : "";
    item.append(line(`In ${waiting.channel ?? "?"}, message ${waiting.ts ?? "not posted yet"}, ${who}${since}.`));
  }
  return item;
}

/** The messages its run posted or streamed, as its checkpoints and waits name them. */
function messagesStep(messages) {
  const words = (message) =>
    [
      `${message.kind} "${message.name}"`,
      `in ${message.channel ?? "?"}`,
      `ts ${message.ts}`,
      message.state,
      message.posted ? "posted, then updated" : null,
      message.found ? "found by a retry" : null,
    ]
      .filter(Boolean)
      .join(" · ");
  return step(
    "messages",
    `Messages: ${number(messages.length)}`,
    ...messages.map((message) => line(words(message), { class: "step-line message" })),
  );
}

/** Where an effect stands now, in words. */
function ending(effect) {
  switch (effect.status) {
    case "done":
      return "Done: delivered.";
    case "settled":
      return "Settled: delivered, or discarded from the parked list. Its row is gone, and its attempts with it.";
    case "parked":
      return `Parked${effect.parkedAt ? ` ${time(effect.parkedAt)}` : ""}: waits for an operator to replay or discard it.`;
    case "stopped":
      return "Stopped: its user stopped it, or a newer message interrupted it.";
    case "pending": {
      const next = effect.leased
        ? "an attempt runs now"
        : effect.nextAttemptAt
          ? `next attempt ${time(effect.nextAttemptAt)}`
          : "waiting";
      return `Pending: ${next}.`;
    }
    default:
      return `${effect.status}.`;
  }
}

function effectStep(effect) {
  const failed = effect.attempts === null || effect.attempts === undefined ? null : `${number(effect.attempts)} failed so far`;
  const item = step("effect", [el("code", effect.key, { class: "key" }), badge(effect.status)]);
  item.dataset.effect = effect.key;
  const about = [effect.effect, failed].filter(Boolean).join(" · ");
  if (about) item.append(line(about, { class: "step-line muted" }));
  const history = effect.history ?? [];
  const inner = el("ol", undefined, { class: "timeline inner" });
  // A row keeps its last 10 attempts (docs/guides/operations.md): earlier ones are gone.
  if (history.length >= KEPT_ATTEMPTS) inner.append(step("note", "Earlier attempts not kept: these are its last ones."));
  inner.append(...history.map((attempt, i) => attemptStep(attempt, i + 1)));
  // Read from the run's checkpoints and waits (only on the story of one delivery, never on the list).
  if (effect.waiting) inner.append(waitingStep(effect.waiting));
  if (effect.messages?.length > 0) inner.append(messagesStep(effect.messages));
  const end = step(`end end-${known(effect.status)}`, ending(effect));
  if (effect.lastError && effect.status !== "done" && effect.status !== "settled")
    end.append(line(`Last error: ${effect.lastError}`, { class: "step-line wrap error-text" }));
  inner.append(end);
  item.append(inner);
  return item;
}

/** The whole timeline of `story`. */
export function timeline(story) {
  const list = el("ol", undefined, { class: "timeline", id: "event-timeline" });
  const retried =
    story.retryNum === null || story.retryNum === undefined
      ? "Slack's first try (no X-Slack-Retry-Num)."
      : `Slack's retry ${story.retryNum}${story.retryReason ? ` (X-Slack-Retry-Reason: ${story.retryReason})` : ""}.`;
  list.append(
    step(
      "received",
      `Received ${time(story.receivedAt)}`,
      line(`${story.kind} · ${story.type}`),
      line(retried, { class: "step-line retry" }),
    ),
    step(
      "recorded",
      `Recorded on shard ${story.shard ?? "?"}`,
      line(`Its receipt and ${story.effects.length} effect${story.effects.length === 1 ? "" : "s"} in one transaction.`),
    ),
    ...story.effects.map(effectStep),
  );
  if (story.effects.length === 0) list.append(step("note", "No effect: no listener matched it."));
  list.append(step(`end end-${known(story.status)}`, ["Now", badge(story.status)]));
  return list;
}
