// Per-minute charts, drawn by uPlot (a classic script page.html loads after this module graph:
// the global `uPlot` exists by the first refresh, which waits for DOMContentLoaded).
import { $ } from "./dom.browser.js";

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

export function renderCharts(overview) {
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
