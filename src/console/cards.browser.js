// The last hour in cards: totals, what waits now, latency, Slack's view of our answers.
import { $, el } from "./dom.browser.js";
import { ms, number } from "./format.browser.js";

export function renderCards(overview) {
  const { totals, shards, guard } = overview;
  const pending = shards.reduce((sum, s) => sum + s.outboxPending, 0);
  const parked = shards.reduce((sum, s) => sum + s.outboxParked, 0);
  const cards = [
    ["Accepted", number(totals.accepted), "events, last hour"],
    ["Delivered", number(totals.delivered), "effects, last hour"],
    ["Retried", number(totals.retried), "attempts, last hour"],
    ["Pending now", number(pending), "in the outboxes", pending > 0 && shards.some((s) => s.oldestPendingAgeMs > 60_000)],
    ["Parked now", number(parked), "wait for an operator", parked > 0],
    ["Stopped", number(totals.stopped ?? 0), "by their users, last hour"],
    ["Turns refused", number(totals.turnsRefused ?? 0), "over their budgets, last hour"],
    // A shard past its capacity refused these (nothing recorded; Slack retries): not the same fault as a slow commit.
    ["Overloaded", number(totals.overloaded ?? 0), "ingests refused, last hour", (totals.overloaded ?? 0) > 0],
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
