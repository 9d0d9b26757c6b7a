import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { appMention, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { bucketStub, deliver, newWorkspace, receiptsByBucket, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/** Makes `team` a workspace of `buckets` shards from the start (a layout effective since 0, as if set long ago). */
async function spreadOver(team: string, buckets: number): Promise<void> {
  const zero = bucketStub(team, 0);
  await zero.changeBuckets(buckets, 1);
  await runInDurableObject(zero, (_, state) => {
    state.storage.sql.exec("UPDATE bucket_layouts SET effective_at = 1 WHERE buckets = ?", buckets);
  });
}

describe("Slack-aware pacing", () => {
  for (const buckets of [1, 4]) {
    it(`40 mentions in one channel within a second, against a Web API allowing 1/s per channel with bursts of 3 (${buckets} shard${buckets > 1 ? "s" : ""}): all 40 replies land, in order, with at most 2 answered 429`, async () => {
      slack().limitPostsPerChannel({ perSecond: 1, burst: 3 });
      const team = newWorkspace();
      if (buckets > 1) await spreadOver(team, buckets);
      const channel = `CPACE${team.slice(-6)}`;
      const sent: string[] = [];
      const started = Date.now();
      for (let i = 0; i < 40; i++) {
        const event = appMention({ channel });
        const delivery = await signedEvent(eventCallback(event, { teamId: team }), signedBy());
        expect((await deliver(delivery)).status).toBe(200);
        sent.push(String(event.ts));
      }
      const sendingMs = Date.now() - started;
      if (buckets > 1) {
        // The mentions were recorded by several shards of the workspace, all paced as one channel.
        const held = await receiptsByBucket(team, buckets);
        expect(held.filter((n) => n > 0).length).toBeGreaterThan(1);
      }

      const posts = () =>
        slack()
          .callsTo("chat.postMessage")
          .filter((c) => c.body.channel === channel);
      const landed = () => posts().filter((c) => c.outcome === "ok");
      const deadline = Date.now() + 60_000;
      while (landed().length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));

      expect(landed().map((c) => c.body.thread_ts)).toEqual(sent);
      expect(posts().length - landed().length).toBeLessThanOrEqual(2); // 429s answered
      // Never faster than Slack allows: after the burst of 3, one a second on average.
      const times = landed().map((c) => c.at);
      expect(times[39]! - times[0]!).toBeGreaterThanOrEqual((40 - 3) * 1000 - 50);
      console.log(`pacing (${buckets} shards): 40 mentions sent in ${sendingMs} ms, replies over ${times[39]! - times[0]!} ms`);
    }, 90_000);
  }
});
