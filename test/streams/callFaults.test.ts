import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { RetryableError } from "../../src/platform/errors";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { agentSessionStopped } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { CHANNEL, problemsOf, runAnswer, type Scenario, THREAD } from "../support/faultMatrix";
import { eventDelivery, mentionIn } from "../support/inboundOf";
import { latch } from "../support/latch";
import { recordPlanned, shardIn, workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const FEEDBACK = [{ type: "context_actions", elements: [{ type: "feedback_buttons", action_id: "call_faults_feedback" }] }];
const tokens = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i} `);

/**
 * A streamed answer of `text(n)` in messages of 250 characters, ending with feedback buttons,
 * where n counts the listener's runs (an attempt that died is not counted as an attempt); the
 * first run fails before its stop.
 */
function answer(name: string, text: (n: number) => string[], shown: string[]): Scenario {
  let runs = 0;
  return {
    name,
    text: shown.join(""),
    blocksMark: "call_faults_feedback",
    makes: [],
    vars: { STREAM_MAX_CHARS: "250" },
    app: new App().event("app_mention", async ({ sayStream }) => {
      const n = ++runs;
      const streamer = sayStream();
      for (const token of text(n)) await streamer.append({ markdown_text: token });
      if (n === 1) throw new Error("the first attempt failed before its stop");
      await streamer.stop({ blocks: FEEDBACK as never });
    }),
  };
}

describe("a stream's calls under faults, beyond the matrix", () => {
  it("a retry's delete that died unconfirmed is written ahead: a later attempt answering as the first did shows all of it", async () => {
    const first = [...tokens(50, "w"), ...tokens(100, "x")];
    const other = [...tokens(50, "w"), ...tokens(100, "v")];
    // The second run answers otherwise (cutting the first's messages), the third as the first did.
    const again = () => answer("again", (n) => (n === 2 ? other : first), first);
    const clean = await runAnswer(again());
    const deletes = clean.calls.flatMap((method, at) => (method === "chat.delete" ? [at] : []));
    expect(deletes.length).toBeGreaterThan(1);
    expect(problemsOf({ ...again(), text: other.join("") }, clean)).toEqual([]);
    const scenario = again();
    const run = await runAnswer(scenario, { at: deletes.at(-1)!, fault: "died" });
    expect(problemsOf(scenario, run)).toEqual([]);
  });

  it("a message deleted in Slack before its call's outcome was known is already gone: the retry shows the answer in new messages", async () => {
    const text = tokens(120, "w");
    const scenario = answer("deleted", () => text, text);
    const clean = await runAnswer(scenario);
    const append = clean.calls.indexOf("chat.appendStream");
    const deleteByHand = async (fake: typeof clean.slack) => {
      const [message] = fake.messagesIn(CHANNEL, THREAD);
      const body = JSON.stringify({ channel: CHANNEL, ts: message!.ts });
      await fake.fetch(`${fake.apiUrl}chat.delete`, { method: "POST", headers: { "content-type": "application/json" }, body });
    };
    const run = await runAnswer(scenario, { at: append, fault: "died", meanwhile: deleteByHand });
    expect(problemsOf(scenario, run)).toEqual([]);
  });

  it("without the history scope a lost start is left to Slack, as documented: the answer complete after it, the run delivered", async () => {
    const text = tokens(120, "w");
    const scenario: Scenario = {
      ...answer("no history", () => text, text),
      app: new App().event("app_mention", async ({ sayStream }) => {
        const streamer = sayStream();
        for (const token of text) await streamer.append({ markdown_text: token });
        await streamer.stop({ blocks: FEEDBACK as never });
      }),
      prepare: (fake) => fake.fail({ method: "conversations.replies" }, { error: "missing_scope" }, 10),
    };
    const run = await runAnswer(scenario, { at: 0, fault: "lost" });
    const [orphan, ...answered] = run.slack.messagesIn(CHANNEL, THREAD);
    expect(text.join("").startsWith(orphan!.text)).toBe(true);
    expect(orphan!.streaming).toBe(true);
    expect(answered.map((m) => m.text).join("")).toBe(text.join(""));
    expect(answered.every((m) => !m.streaming)).toBe(true);
    expect(run.counts).toEqual({ pending: 0, parked: 0, stopped: 0 });
  });

  it("a parked run's stream.close on a message deleted in Slack is done, not parked", async () => {
    const clock = controlClock();
    const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const app = new App().event("app_mention", async ({ sayStream }) => {
      const streamer = sayStream();
      await streamer.append({ markdown_text: "an answer someone deleted" });
      const started = await slack().waitFor("chat.startStream");
      const ts = String(started.body.thread_ts);
      const [message] = slack().messagesIn(CHANNEL, ts);
      await slack().fetch(`${slack().apiUrl}chat.delete`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ channel: CHANNEL, ts: message!.ts }),
      });
      throw new RetryableError("my API is flaky");
    });
    const stub = env.SHARD.get(env.SHARD.idFromName(`call-faults-${team}`));
    const parked = await runInDurableObject(stub, async (_, state) => {
      const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings: { SLACK_PACING: "false", MAX_ATTEMPTS: "1" } });
      recordPlanned(outbox, app, mentionIn(team, CHANNEL, THREAD, "EvDeleted"));
      for (let i = 0; i < 3; i++) {
        await loop.sweep(Date.now());
        clock.advance(60_000);
      }
      return outbox.parked.list(10, "oldest first").map((row) => row.idempotency_key);
    });
    expect(parked).toEqual(["EvDeleted:run:event:app_mention"]);
  });
});

describe("the stop button while a stream's start is in flight", () => {
  it("the start that answers after the stop is deleted, not left streaming", async () => {
    controlClock();
    const team = newWorkspace();
    const app = new App().message("think", async ({ sayStream }) => {
      const stream = sayStream();
      await stream.append({ markdown_text: "thinking…" });
      await stream.stop();
    });
    const ts = messageTs();
    const inbound = eventDelivery(team, channelMessage({ text: "think about it", ts }));
    const channel = inbound.conversation!.channel;
    const inFlight = latch();
    const answer = latch();
    const fake = slack();
    vi.mocked(globalThis.fetch).mockImplementation(async (input, init) => {
      const request = new Request(input as Request, init);
      if (request.url.endsWith("/chat.startStream")) {
        inFlight.open();
        await answer.opened;
      }
      return fake.fetch(request);
    });
    const messages = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await shard.recording.ingest(inbound);
      await inFlight.opened;
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts })));
      answer.open();
      await fake.waitFor("chat.delete");
      return fake.messagesIn(channel, ts);
    });
    expect(fake.callsTo("chat.startStream")).toHaveLength(1);
    expect(messages.filter((m) => m.streaming)).toEqual([]);
  });
});
