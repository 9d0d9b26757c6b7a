import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import type { WorkspaceShard } from "../../src/shard/workspaceShard";
import type { RecordedCall } from "../../src/testing";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { agentSessionStopped } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { latch } from "../support/latch";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const THINKING = "thinking… ".repeat(30);

/**
 * Holds the answers to `method` until `release` opens: Slack applied the call at once, its
 * answer reaches the shard later (a slow network, a busy Slack).
 */
function answersHeldFor(method: string, release: Promise<void>, text?: string): void {
  const answered = vi.mocked(globalThis.fetch).getMockImplementation()!;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as Request, init);
    const body = new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer()));
    const answer = await answered(request);
    if (request.url.endsWith(`/${method}`) && (text === undefined || body.get("markdown_text") === text)) await release;
    return answer;
  });
}

/** The run settled stopped (an outcome): resolves with its reason — or with "parked: …" should it be parked. */
function stoppedReason(shard: WorkspaceShard, key: string) {
  const settled = latch<string>();
  shard.delivery.events.subscribe((event) => {
    if (!event.key.startsWith(key)) return;
    if (event.type === "stopped") settled.open(event.reason);
    if (event.type === "parked") settled.open(`parked: ${event.reason}`);
  });
  return settled.opened;
}

/**
 * A question `app` answers with a stream, in a workspace of its own, whose `held` call's answer
 * is held back: once the call has reached Slack (the stream shows it), the user clicks stop and
 * the event names the stream; only then (after the stop's alarm, with `alarmFirst`) does the
 * answer come. Resolves when the run settles stopped and the thread's status is cleared, with the
 * stop's reason, the message as Slack shows it, and this channel's calls of a method.
 */
async function stoppedWhileAnswerHeld(app: App, held: { method: string; text?: string }, { alarmFirst = false } = {}) {
  controlClock();
  const team = newWorkspace();
  const answerComes = latch();
  answersHeldFor(held.method, answerComes.opened, held.text);
  const ts = messageTs();
  const inbound = eventDelivery(team, channelMessage({ text: "think about it", ts }));
  const channel = inbound.conversation!.channel;
  const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
    const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
    const stopped = stoppedReason(shard, inbound.dedupeKey);
    await shard.recording.ingest(inbound);
    const reached = (call: RecordedCall) => held.text === undefined || call.body.markdown_text === held.text;
    await slack().waitFor(held.method, reached, 2000);
    const [shown] = slack().messagesIn(channel, ts);
    await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts }, [shown!.ts])));
    // The stop's alarm: its follow-ups (the run's streams closed from its checkpoint) are due at once.
    if (alarmFirst) await shard.alarm();
    answerComes.open();
    const reason = await stopped;
    await slack().waitFor("assistant.threads.setStatus", (call) => call.body.status === "");
    return { reason, message: slack().message(channel, shown!.ts) };
  });
  // This channel's calls: an earlier test's shard may still be calling.
  const here = (method: string) =>
    slack()
      .callsTo(method)
      .filter((call) => call.body.channel === channel);
  return { ...outcome, channel, here };
}

describe("a stream whose start is answered after the stop that names it", () => {
  it("stays, with the text the user saw when they clicked: stopped by the stop, not deleted by the run", async () => {
    const app = new App().message("think", async ({ signal, sayStream }) => {
      await sayStream().append({ markdown_text: THINKING });
      await new Promise((resolve) => signal.addEventListener("abort", resolve));
    });
    const outcome = await stoppedWhileAnswerHeld(app, { method: "chat.startStream" });
    expect(outcome.reason).toBe("stopped by user");
    expect(outcome.message).toMatchObject({ streaming: false, text: THINKING });
    expect(outcome.here("chat.delete")).toEqual([]);
    // Stopped once, by the stop's own call.
    expect(outcome.here("chat.stopStream").map((call) => call.body)).toEqual([
      { channel: outcome.channel, ts: outcome.message!.ts },
    ]);
  });
});

describe("a stream whose last append is answered after the stop", () => {
  it.each([
    ["its first text", "1", "1"],
    ["a later text", " 2", "1 2"],
  ])("keeps %s the user saw: the stopped run's close does not set it back to its checkpoint", async (_, text, shows) => {
    const app = new App().message("think", async ({ signal, sayStream }) => {
      const stream = sayStream({ buffer_size: 1 });
      // The stream opens with a task card, then the numbers, a call each; the user stops it once `text` shows.
      await stream.append({ chunks: [{ type: "task_update", id: "t", title: "Counting", status: "in_progress" }] as never });
      for (const number of shows.split(/(?= )/)) {
        await stream.append({ markdown_text: number });
        await slack().waitFor("chat.appendStream", (call) => call.body.markdown_text === number);
      }
      await new Promise((resolve) => signal.addEventListener("abort", resolve));
    });
    const outcome = await stoppedWhileAnswerHeld(app, { method: "chat.appendStream", text }, { alarmFirst: true });
    expect(outcome.reason).toBe("stopped by user");
    expect(outcome.message).toMatchObject({ streaming: false, text: shows });
    expect(outcome.here("chat.update")).toEqual([]);
  });
});
