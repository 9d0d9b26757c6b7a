import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { RetryableError } from "../../src/platform/errors";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { mentionIn } from "../support/inboundOf";
import { workspaceShardIn } from "../support/shardIn";
import { settled } from "../support/suspended";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 42 point 1's last clause: an event's story names its streamed answer's messages, as the stream's checkpoint keeps them.

const slack = useFakeSlack();
const CHANNEL = "C0STORIES";
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i + 1} `);

/** A mention answered by a stream of ~500 characters, cut into messages of STREAM_MAX_CHARS 200; `stop` ends it or not. */
function streaming(stop: boolean) {
  return new App().event("app_mention", async ({ sayStream, attempt }) => {
    const streamer = sayStream();
    for (const word of words(100)) await streamer.append({ markdown_text: word });
    if (stop) await streamer.stop();
    if (attempt === 1) throw new RetryableError("the model's follow-up failed");
    if (!stop) await streamer.stop();
  });
}

/** The story of a mention whose first attempt streamed and failed: its one effect, and the thread as Slack shows it. */
async function afterFirstAttempt(stop: boolean) {
  controlClock();
  const team = newWorkspace();
  const thread = `1700000000.${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
  const inbound = mentionIn(team, CHANNEL, thread, `Ev${crypto.randomUUID().slice(0, 8)}`);
  return runInDurableObject(shardStub(team), async (_, state) => {
    const shard = await workspaceShardIn(state, {
      app: streaming(stop),
      settings: { STREAM_MAX_CHARS: "200", SLACK_PACING: "false" },
    });
    const first = settled(shard);
    await shard.recording.ingest(inbound);
    expect(await first).toBe("retried");
    const [effect] = shard.recording.eventStory(inbound.dedupeKey)!.effects;
    return { effect: effect!, shown: slack().messagesIn(CHANNEL, thread) };
  });
}

describe("an event's story: a streamed answer's messages", () => {
  it("names each message of a stopped stream by its ts: the ones before the last sealed, the last stopped", async () => {
    const { effect, shown } = await afterFirstAttempt(true);
    expect(effect).toMatchObject({ status: "pending", attempts: 1, waiting: null });
    expect(shown.length).toBeGreaterThan(1);
    expect(effect.messages).toEqual(
      shown.map((message, i) => ({
        kind: "stream",
        name: "stream #0",
        channel: CHANNEL,
        ts: message.ts,
        state: i === shown.length - 1 ? "stopped" : "sealed",
      })),
    );
  });

  it("a stream its attempt left open shows its last message open", async () => {
    const { effect, shown } = await afterFirstAttempt(false);
    expect(effect.messages?.map((message) => [message.ts, message.state])).toEqual(
      shown.map((message, i) => [message.ts, i === shown.length - 1 ? "open" : "sealed"]),
    );
  });
});
