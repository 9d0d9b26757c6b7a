import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { UNSEEN_RUN_CALLS } from "../../src/delivery/deliverClaimed";
import { IMMEDIATE_IN_FLIGHT_MAX } from "../../src/delivery/deliveryLoop";
import { SPENT_RESUME_MS } from "../../src/platform/invocationMeter";
import { appMention, slackId } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { newWorkspace } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 43 (c): attempts that continue the line of immediate attempts count on the invocation that
// started them, so once ingests stopped, several shared its last subrequests and were cut short
// (SUBREQUESTS_PER_INVOCATION=200: 51 cut short in a flood). Now an attempt begins only with its
// expected calls promised to it, beside those promised to the attempts already running.

const slack = useFakeSlack();
const shardOf = (team: string) => env.SHARD.get(env.SHARD.idFromName(`${team}/0`));

/** Calls each mention's handler makes: a post, then three reactions on it — more than a run not seen yet is promised. */
const CALLS = UNSEEN_RUN_CALLS + 1;
/** Rows in flight and in line when the flood ends: the line holds most of them. */
const FLOOD = IMMEDIATE_IN_FLIGHT_MAX * 3;

function replyingApp() {
  return new App().event("app_mention", async ({ event, client }) => {
    const channel = String(event!.channel);
    const posted = await client.chat.postMessage({ channel, text: "on it" });
    for (const name of ["eyes", "thinking_face", "white_check_mark"])
      await client.reactions.add({ channel, timestamp: String(posted.ts), name });
  });
}

describe("subrequests promised to each attempt as it begins", () => {
  it("a flood past the line's capacity, then quiet: no attempt is cut short by another's calls, and every row is delivered once", {
    timeout: 60_000,
  }, async () => {
    const team = newWorkspace();
    const clock = controlClock();
    const app = replyingApp();
    const warmUp = eventDelivery(team, appMention({ channel: slackId("C") }));
    const flood = Array.from({ length: FLOOD }, () => eventDelivery(team, appMention({ channel: slackId("C") })));
    await runInDurableObject(shardOf(team), async (_, state) => {
      const settings = { SUBREQUESTS_PER_INVOCATION: "40", SLACK_PACING: "false" };
      const shard = await workspaceShardIn(state, { name: `${team}/0`, app, settings });
      const { immediate, courier } = shard.delivery.ready!;
      const cutShort: string[] = [];
      const delivered: string[] = [];
      shard.delivery.events.subscribe((event) => {
        if (event.type === "retried" && event.reason.includes("subrequests were spent")) cutShort.push(event.key);
        if (event.type === "delivered") delivered.push(event.key);
      });
      const settled = async () => {
        while (immediate.counts().inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 1));
      };
      // A shard that has delivered this listener before (its calls are known, more than a run not seen yet is promised).
      await shard.recording.ingest(warmUp);
      await settled();
      // The flood: every ingest in one go, before any call of theirs is answered; then no ingest renews the window.
      for (const inbound of flood) shard.recording.ingest(inbound);
      await settled();
      // The alarms, each an invocation with a budget of its own, deliver what was left for them.
      for (let alarm = 0; alarm < 100 && delivered.length < flood.length + 1; alarm++) {
        clock.advance(SPENT_RESUME_MS);
        courier.completions.flush();
        await shard.delivery.sweep(Date.now());
        await settled();
      }
      expect(cutShort).toEqual([]);
      expect(shard.delivery.counters).toMatchObject({ delivered: flood.length + 1, retried: 0, parked: 0 });
      expect(new Set(delivered).size).toBe(flood.length + 1);
    });
    // Each mention's calls reached Slack once each: one post and its three reactions.
    const posts = slack().callsTo("chat.postMessage");
    expect(posts).toHaveLength(flood.length + 1);
    expect(new Set(posts.map((call) => call.body.channel)).size).toBe(flood.length + 1);
    expect(slack().callsTo("reactions.add")).toHaveLength((CALLS - 1) * (flood.length + 1));
    expect(slack().calls).toHaveLength(CALLS * (flood.length + 1));
  });
});
