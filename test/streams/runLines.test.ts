import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { AppMentionEvent } from "@slack/types";
import { jsonSchema, streamText, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import type { EventArgs, RunArgs } from "../../src/app/listeners";
import type { ModelStreamPart } from "../../src/app/streams";
import { controlClock } from "../support/clock";
import { mentionIn } from "../support/inboundOf";
import { countedStream, finish, mockModel, textParts, toolCall } from "../support/mockModel";
import { recordPlanned, shardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 42, point 4: every log line of a delivery names its event — also the lines a run's streams
// write (a reply at its cap, a model's tool that failed), which know no row: they carry the
// delivery's ids from the run (inbound/loggedIds.ts).

useFakeSlack();
const CHANNEL = "C0LINES";
const THREAD = "1700000000.000900";

/** Runs `handler` for one app_mention (event id `eventId`) in a fresh shard; the warn lines written meanwhile, parsed. */
async function warnLinesOf(eventId: string, handler: (args: RunArgs<EventArgs<AppMentionEvent>>) => Promise<void>) {
  const clock = controlClock();
  const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  const app = new App().event("app_mention", handler);
  const warn = vi.spyOn(console, "warn");
  const stub = env.SHARD.get(env.SHARD.idFromName(`lines-${team}`));
  await runInDurableObject(stub, async (_, state) => {
    const settings = { SLACK_PACING: "false", STREAM_MAX_REPLY_CHARS: "1000" };
    const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings });
    recordPlanned(outbox, app, mentionIn(team, CHANNEL, THREAD, eventId));
    await loop.sweep(Date.now());
    clock.advance(60_000);
  });
  const lines = warn.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
  warn.mockRestore();
  return { team, lines };
}

describe("a run's stream lines name the event", () => {
  it("a reply that reached its cap: the line carries event_id and workspace", async () => {
    const long = Array.from({ length: 100 }, (_, i): ModelStreamPart & { text: string } => ({
      type: "text-delta",
      text: `${i}`.padStart(49, "0"),
    }));
    const { team, lines } = await warnLinesOf("EvCapLine", async ({ sayStream }) => {
      const stream = sayStream();
      await stream.pipe(countedStream(long).stream);
      await stream.stop();
    });
    const capped = lines.filter((line) => String(line.msg).includes("reached its cap"));
    expect(capped).toEqual([expect.objectContaining({ event_id: "EvCapLine", workspace: team })]);
  });

  it("a model's tool that failed: the line carries event_id and workspace", async () => {
    const failing = tool({
      description: "fails",
      inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } } }),
      execute: async ({ q }): Promise<{ answer: string }> => {
        throw new Error(`down: ${q}`);
      },
    });
    const model = mockModel([toolCall("c1", "lookup", { q: "x" }), finish("tool-calls")], [...textParts("t", "sorry"), finish()]);
    const { team, lines } = await warnLinesOf("EvToolLine", async ({ sayStream }) => {
      const stream = sayStream();
      await stream.pipe(streamText({ model, prompt: "go", tools: { lookup: failing }, stopWhen: () => false }));
      await stream.stop();
    });
    const failed = lines.filter((line) => String(line.msg).includes("a tool the model called failed"));
    expect(failed).toEqual([expect.objectContaining({ event_id: "EvToolLine", workspace: team, tool: "lookup" })]);
  });
});
