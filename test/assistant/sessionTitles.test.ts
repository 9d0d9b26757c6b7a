import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { Assistant } from "../../src/app/assistant/assistant";
import { assistantThreadMessage, dmRootMessage, dmThread, USER } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { latch } from "../support/latch";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

// An assistant's setTitle under each view (issue 30): the agent view's thread is an agent
// session, titled with agents.sessions.rename; the assistant view's keeps assistant.threads.setTitle.

const slack = useFakeSlack();

/** An assistant whose userMessage titles its thread with each of `titles`, in order. */
const titling = (titles: string[]) =>
  new App().assistant(
    new Assistant({
      threadStarted: async () => {},
      userMessage: async ({ setTitle }) => {
        for (const title of titles) await setTitle(title);
      },
    }),
  );

/** Delivers `event` to a shard of a new workspace serving `app` (with `settings`): how its row settled. */
async function settle(app: App, event: Record<string, unknown>, settings: Record<string, string> = {}) {
  controlClock();
  const team = newWorkspace();
  return runInDurableObject(shardStub(team), async (_, state) => {
    const shard = await workspaceShardIn(state, { app, settings });
    const settled = latch<string>();
    shard.delivery.events.subscribe((event) => {
      if (event.type === "delivered") settled.open("delivered");
      if (event.type === "parked") settled.open(`parked: ${event.reason}`);
      if (event.type === "retried") settled.open(`retried: ${event.reason}`);
    });
    await shard.recording.ingest(eventDelivery(team, event));
    return settled.opened;
  });
}

const bodiesOf = (method: string, channel: string) =>
  slack()
    .callsTo(method)
    .filter((call) => call.body.channel_id === channel)
    .map((call) => call.body);

describe("an assistant's setTitle", () => {
  it("under the agent view (AGENT_SESSIONS) renames the thread's agent session: agents.sessions.rename", async () => {
    const { channel } = dmThread();
    const root = dmRootMessage(channel, "count to 30");
    const outcome = await settle(titling(["Counting to 30"]), root, { AGENT_SESSIONS: "true" });
    expect(outcome).toBe("delivered");
    expect(bodiesOf("agents.sessions.rename", channel)).toEqual([
      { channel_id: channel, thread_ts: root.ts, title: "Counting to 30" },
    ]);
    expect(bodiesOf("assistant.threads.setTitle", channel)).toEqual([]);
  });

  it("under the agent view cuts a title over Slack's 200 characters to 200, never inside a character", async () => {
    const { channel } = dmThread();
    const root = dmRootMessage(channel, "a long question");
    const long = "a".repeat(250);
    // 199 characters, then an emoji (two UTF-16 units) across the 200th: the emoji goes whole.
    const emojiAcross = `${"b".repeat(199)}😀 and more`;
    const outcome = await settle(titling([long, emojiAcross, "x".repeat(200)]), root, { AGENT_SESSIONS: "true" });
    expect(outcome).toBe("delivered");
    expect(bodiesOf("agents.sessions.rename", channel).map((body) => body.title)).toEqual([
      "a".repeat(200),
      "b".repeat(199),
      "x".repeat(200),
    ]);
  });

  it("under the assistant view (AGENT_SESSIONS=false, the test env's) keeps assistant.threads.setTitle, the title as given", async () => {
    const thread = dmThread();
    const message = assistantThreadMessage(thread, "what is this channel about?");
    const title = "t".repeat(210);
    const outcome = await settle(titling(["About this channel", title]), message);
    expect(outcome).toBe("delivered");
    expect(bodiesOf("assistant.threads.setTitle", thread.channel)).toEqual([
      { channel_id: thread.channel, thread_ts: thread.threadTs, title: "About this channel" },
      { channel_id: thread.channel, thread_ts: thread.threadTs, title },
    ]);
    expect(bodiesOf("agents.sessions.rename", thread.channel)).toEqual([]);
    expect(bodiesOf("agents.sessions.setStatus", thread.channel)).toEqual([]);
  });

  it("under the agent view the session's first processing call names the user whose message started it", async () => {
    const { channel } = dmThread();
    const root = dmRootMessage(channel, "who asked?");
    expect(await settle(titling(["Who asked"]), root, { AGENT_SESSIONS: "true" })).toBe("delivered");
    expect(bodiesOf("agents.sessions.setStatus", channel)).toEqual([
      { channel_id: channel, thread_ts: root.ts, status: "processing", initiator_user_id: USER },
      { channel_id: channel, thread_ts: root.ts, status: "active" },
    ]);
  });
});
