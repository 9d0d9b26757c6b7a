import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
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
function answersHeldFor(method: string, release: Promise<void>): void {
  const answered = vi.mocked(globalThis.fetch).getMockImplementation()!;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const answer = await answered(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith(`/${method}`)) await release;
    return answer;
  });
}

describe("a stream whose start is answered after the stop that names it", () => {
  it("stays, with the text the user saw when they clicked: stopped by the stop, not deleted by the run", async () => {
    controlClock();
    const team = newWorkspace();
    const answerComes = latch();
    answersHeldFor("chat.startStream", answerComes.opened);
    const app = new App().message("think", async ({ signal, sayStream }) => {
      await sayStream().append({ markdown_text: THINKING });
      await new Promise((resolve) => signal.addEventListener("abort", resolve));
    });
    const ts = messageTs();
    const inbound = eventDelivery(team, channelMessage({ text: "think about it", ts }));
    const channel = inbound.conversation!.channel;
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
      const settled = latch<string>();
      shard.delivery.events.subscribe((event) => {
        if (event.type === "parked" && event.key.startsWith(inbound.dedupeKey)) settled.open(event.reason);
      });
      await shard.recording.ingest(inbound);
      await slack().waitFor("chat.startStream");
      // Slack shows the stream; the user clicks stop; the event names it. Its start's answer comes after.
      const [shown] = slack().messagesIn(channel, ts);
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts }, [shown!.ts])));
      answerComes.open();
      const reason = await settled.opened;
      await slack().waitFor("assistant.threads.setStatus", (call) => call.body.status === "");
      return { reason, message: slack().message(channel, shown!.ts) };
    });
    expect(outcome.reason).toBe("stopped by user");
    expect(outcome.message).toMatchObject({ streaming: false, text: THINKING });
    expect(slack().callsTo("chat.delete")).toEqual([]);
    // Stopped once, by the stop's own call.
    expect(
      slack()
        .callsTo("chat.stopStream")
        .map((call) => call.body),
    ).toEqual([{ channel, ts: outcome.message!.ts }]);
  });
});
