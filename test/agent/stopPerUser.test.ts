import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { newRow } from "../../src/recording/outboxRows";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import type { FakeMessage } from "../../src/testing/fakeSlack";
import { agentSessionStopped } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { latch } from "../support/latch";
import { stoppedIn } from "../support/outboxRows";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const ANN = "U0000ANNA";
const BOB = "U0000BOBB";

/** Ann's question roots a thread in a channel of its own; Bob asks in the same thread. */
function twoUsersInOneThread(team: string) {
  const ts = messageTs();
  const ann = eventDelivery(team, channelMessage({ user: ANN, text: "think, Ann", ts }));
  const channel = ann.conversation!.channel;
  const bob = eventDelivery(team, { ...channelMessage({ user: BOB, text: "think, Bob", channel }), thread_ts: ts });
  return { ann, bob, channel, ts };
}

const stoppedBy = (user: string, channel: string, threadTs: string, streams: string[] = []) => ({
  ...agentSessionStopped({ channel, threadTs }, streams),
  user,
});

describe("a stop is the clicking user's (agent_session_stopped names its user)", () => {
  it("Ann's stop aborts Ann's running run and stops its stream; Bob's run in the same thread finishes its answer", async () => {
    controlClock();
    const team = newWorkspace();
    const streaming: Record<string, ReturnType<typeof latch<void>>> = { [ANN]: latch(), [BOB]: latch() };
    const bobMayFinish = latch();
    const aborted: string[] = [];
    // Both runs stream in the thread at once, as they do with turns: "parallel" (by default Bob's would
    // wait for Ann's to end: test/agent/turns.test.ts).
    const app = new App({ turns: "parallel" }).message("think", async ({ event, signal, sayStream }) => {
      const user = String(event.user);
      signal.addEventListener("abort", () => {
        aborted.push(user);
      });
      const stream = sayStream();
      await stream.append({ markdown_text: `thinking for ${user}… ` });
      streaming[user]!.open();
      if (user === ANN) return new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
      await bobMayFinish.opened;
      await stream.append({ markdown_text: "done." });
      await stream.stop();
    });
    const { ann, bob, channel, ts } = twoUsersInOneThread(team);
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      // Unpaced: both streams start at once (pacing is not what this test is about).
      const shard = await workspaceShardIn(state, { app, settings: { SLACK_PACING: "false" } });
      // How Bob's run settles: delivered, or stopped (as a stop of everyone's would leave it) or parked.
      const bobSettled = latch<string>();
      shard.delivery.events.subscribe((event) => {
        const settled = event.type === "delivered" || event.type === "stopped" || event.type === "parked";
        if (settled && event.key.startsWith(`${bob.dedupeKey}:run:`)) bobSettled.open(event.type);
      });
      await shard.recording.ingest(ann);
      await shard.recording.ingest(bob);
      await Promise.all([streaming[ANN]!.opened, streaming[BOB]!.opened]);
      // Each run's first text has reached Slack (an append may still be on its way when it resolves).
      const [annStream, bobStream] = await vi.waitFor(() => {
        const streams = [ANN, BOB].map((user) =>
          slack()
            .messagesIn(channel, ts)
            .find((message) => message.text.includes(user)),
        );
        expect(streams).not.toContain(undefined);
        return streams as [FakeMessage, FakeMessage];
      });
      await shard.recording.ingest(eventDelivery(team, stoppedBy(ANN, channel, ts, [annStream.ts])));
      const abortedAtStop = [...aborted];
      bobMayFinish.open();
      const bobRun = await bobSettled.opened;
      await slack().waitFor("chat.stopStream", (call) => call.body.ts === annStream.ts);
      return {
        abortedAtStop,
        parked: shard.operations.listParked(),
        stopped: stoppedIn(state),
        bobRun,
        ann: slack().message(channel, annStream.ts),
        bob: slack().message(channel, bobStream.ts),
      };
    });
    expect(outcome.abortedAtStop).toEqual([ANN]);
    // Ann's run is stopped (an outcome), not parked; Bob's is neither.
    expect(outcome.parked).toEqual([]);
    expect(outcome.stopped).toMatchObject([
      { idempotency_key: `${ann.dedupeKey}:run:message:think`, last_error: "stopped by user" },
    ]);
    expect(outcome.ann).toMatchObject({ streaming: false });
    // Bob's run was delivered, not stopped, and his answer is whole and finalised.
    expect(outcome.bobRun).toBe("delivered");
    expect(outcome.bob).toMatchObject({ text: `thinking for ${BOB}… done.`, streaming: false });
  });

  it("Bob's stop stops only Bob's waiting run (not parked): Ann's run in the same thread still runs", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const ran: string[] = [];
    const app = new App().message("think", async ({ event }) => {
      ran.push(String(event.user));
    });
    const { ann, bob, channel, ts } = twoUsersInOneThread(team);
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      // Recorded for the sweep (not leased): both wait for their first attempt when the stop comes.
      shard.delivery.ready!.courier.outbox.enqueue(
        [ann, bob].map((delivery) =>
          newRow(`${delivery.dedupeKey}:run:message:think`, team, { type: "run", listener: "message:think", inbound: delivery }),
        ),
        Date.now(),
        null,
      );
      await shard.recording.ingest(eventDelivery(team, stoppedBy(BOB, channel, ts)));
      clock.advance(60_000);
      await shard.delivery.sweep(Date.now());
      return { parked: shard.operations.listParked(), stopped: stoppedIn(state) };
    });
    expect(ran).toEqual([ANN]);
    expect(outcome.parked).toEqual([]);
    expect(outcome.stopped).toMatchObject([
      { idempotency_key: `${bob.dedupeKey}:run:message:think`, last_error: "stopped by user" },
    ]);
  });
});
