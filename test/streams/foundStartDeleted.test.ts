import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { latch } from "../support/latch";
import { workspaceShardIn } from "../support/shardIn";
import { LEASE_MS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const settings = { SLACK_PACING: "false" };

/**
 * Slack's answers as the race plays them: the first chat.startStream is applied at once and
 * answered late — only when the retry sends its first call to the message it found, which then
 * reaches Slack after the first attempt's clean-up did.
 */
function lateStartAnswerBeforeTheRetrysCall(): void {
  const answered = vi.mocked(globalThis.fetch).getMockImplementation()!;
  const startAnswered = latch();
  let starts = 0;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const method = (input instanceof Request ? input.url : String(input)).split("/").at(-1);
    const toTheMessage = method === "chat.appendStream" || method === "chat.stopStream";
    if (toTheMessage && slack().callsTo("chat.delete").length === 0) {
      startAnswered.open();
      await slack().waitFor("chat.delete");
    }
    const answer = await answered(input, init);
    if (method === "chat.startStream" && ++starts === 1) await startAnswered.opened;
    return answer;
  });
}

describe("a stream a retry found in the thread, deleted by the attempt that started it", () => {
  it.each([
    ["its next text", [", part 2"]],
    ["its stop", []],
  ])(
    "met by %s, is forgotten and the run retried: its answer shows once, whole, in a new message — not parked",
    async (_, rest) => {
      const clock = controlClock();
      const team = newWorkspace();
      lateStartAnswerBeforeTheRetrysCall();
      let runs = 0;
      const app = new App().message("answer", async ({ sayStream }) => {
        const stream = sayStream();
        await stream.append({ markdown_text: "part 1" });
        // The first attempt's lease runs out while its start's answer is on its way.
        if (++runs === 1) await new Promise(() => {});
        for (const text of rest) await stream.append({ markdown_text: text });
        await stream.stop();
      });
      const ts = messageTs();
      const inbound = eventDelivery(team, channelMessage({ text: "answer me", ts }));
      const channel = inbound.conversation!.channel;
      const settled = await runInDurableObject(shardStub(team), async (_, state) => {
        const first = await workspaceShardIn(state, { app, settings });
        await first.recording.ingest(inbound);
        await slack().waitFor("chat.startStream");
        // The sweep of a new instance takes the row over once the lease has run out.
        const after = await workspaceShardIn(state, { app, settings });
        const outcomes: string[] = [];
        const done = latch();
        after.delivery.events.subscribe((event) => {
          if (event.type === "retried" || event.type === "delivered" || event.type === "parked") outcomes.push(event.type);
          if (event.type === "delivered" || event.type === "parked") done.open();
        });
        for (let round = 0; round < 4 && outcomes.at(-1) !== "delivered" && outcomes.at(-1) !== "parked"; round++) {
          clock.advance(LEASE_MS + 60_000);
          await after.delivery.sweep(Date.now());
          await vi.waitFor(() => expect(outcomes.length).toBeGreaterThan(round));
        }
        await done.opened;
        return outcomes;
      });
      expect(settled).toEqual(["retried", "delivered"]);
      // The found message was deleted (by the first attempt), and the answer shows once, whole.
      expect(
        slack()
          .callsTo("chat.delete")
          .filter((call) => call.body.channel === channel),
      ).toHaveLength(1);
      expect(
        slack()
          .messagesIn(channel, ts)
          .map((message) => [message.text, message.streaming]),
      ).toEqual([[`part 1${rest.join("")}`, false]]);
    },
  );
});
