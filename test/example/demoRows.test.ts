import { describe, expect, it, vi } from "vitest";
import { appMention, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 43, point 2: the demo's mention (src/example/app.ts) — a placeholder posted in a step, then
// updated — writes no row for its step: the post, named in its metadata, is the step's checkpoint.

const slack = useFakeSlack();

/**
 * Rows a delivered demo mention writes, measured on a shard that already recorded one (what a
 * shard writes once is not the event's): its receipt, its run's row, its completion. The
 * placeholder's checkpoint was a fourth.
 */
const DEMO_MENTION_ROWS = 2;

describe("rows written per demo event", () => {
  it("a mention answered with a placeholder and its update writes no row for the placeholder's step", {
    timeout: 30_000,
  }, async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    const answered = async (n: number) => {
      const event = appMention({ text: "<@U0000BOT> what is up" });
      expect((await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()))).status).toBe(200);
      await vi.waitFor(() => expect(slack().callsTo("chat.update")).toHaveLength(n));
      await vi.waitFor(async () => expect((await stub.stats()).outbox.pending).toBe(0));
      return (await stub.stats()).counters.rowsWritten;
    };
    const first = await answered(1);
    // A minute on: the workspace's pace for chat.update (src/pacing/) lets the next one go at once, unpostponed.
    clock.advance(60_000);
    const second = await answered(2);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(2);
    expect(second - first).toBe(DEMO_MENTION_ROWS);
  });
});
