import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { positiveArgument } from "./runtime/cliArguments";
import { median } from "./scenarios/interleaved";
import { oauthSettings, startSubject } from "./subjects";

// `node scripts/build-bench.mjs && node bench/.build/node/installClicks.mjs`: GET /slack/install's
// latency on a fresh store and again after many clicks (32 at a time, loopback only, no Slack
// called). A click that stored something would show here as a p50 that grows with the clicks.
const CLICKS = positiveArgument("clicks", 5000);
const SAMPLE = positiveArgument("sample", 1000);
const CONCURRENCY = 32;
killDescendantsOnExit();
watchdog(10 * 60_000, "installClicks");

const origin = "http://127.0.0.1:9"; // never called: /slack/install only redirects there
const subject = await startSubject({
  name: "coordinator-oauth",
  apiUrl: `${origin}/api/`,
  settings: oauthSettings(origin),
  stateDir: "install-clicks",
});
const url = new URL("/slack/install", subject.runtime.url);

/** `count` clicks, CONCURRENCY at a time: each one's latency in ms. */
async function click(count: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const browser = async () => {
    while (next++ < count) {
      const started = performance.now();
      const response = await fetch(url, { redirect: "manual" });
      await response.arrayBuffer();
      if (response.status !== 302) throw new Error(`/slack/install answered ${response.status}`);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, browser));
  return latencies;
}

const round = (ms: number | null) => (ms === null ? null : Math.round(ms * 100) / 100);
await click(200); // warm-up, not measured
const fresh = median(await click(SAMPLE));
await click(CLICKS);
const after = median(await click(SAMPLE));
console.log(
  JSON.stringify({
    clicks: CLICKS,
    concurrency: CONCURRENCY,
    p50FreshMs: round(fresh),
    p50AfterClicksMs: round(after),
    ratio: fresh && after ? round(after / fresh) : null,
  }),
);
await subject.runtime.stop();
process.exit(0);
