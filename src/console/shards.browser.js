// The shards' table, sorted by the column whose header was clicked last (pending, most first, at the start).
import { $, el } from "./dom.browser.js";
import { age, bytes, ms, number } from "./format.browser.js";

let shardSort = { key: "outboxPending", descending: true };
let lastShards = [];

function shardValue(shard, key) {
  if (key === "ackP99") return shard.ack.p99 ?? -1;
  if (key === "deliveryP99") return shard.delivery.p99 ?? -1;
  return shard[key] ?? -1;
}

export function renderShards(shards) {
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
          el("td", bytes(shard.databaseSize), { class: "num" }),
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
