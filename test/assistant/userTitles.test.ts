import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { Assistant } from "../../src/app/assistant/assistant";
import type { Inbound } from "../../src/inbound/types";
import { BOT_USER, dmRootMessage, dmThread, SESSION_TITLE_CHANGED_AS_DOCUMENTED } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { latch } from "../support/latch";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

// The title a user chose for an agent session (issue 45 point 2), in one shard on the agent view
// (AGENT_SESSIONS=true): the app's later setTitle (agents.sessions.rename) leaves it unless it
// overwrites; renames are kept in the order Slack says they happened; the app's own rename is no user's choice.

const slack = useFakeSlack();

/** An assistant whose userMessage titles its thread with the message's text ("!" first: overwriting). */
const app = new App().assistant(
  new Assistant({
    threadStarted: async () => {},
    userMessage: async ({ event, setTitle }) => {
      const text = event.text ?? "";
      await setTitle(text.replace(/^!/, ""), { overwrite: text.startsWith("!") });
    },
    titleChanged: async () => {},
  }),
);

const renamed = (thread: { channel: string; threadTs: string }, title: string, eventTs: string, user?: string) => ({
  ...SESSION_TITLE_CHANGED_AS_DOCUMENTED,
  channel: thread.channel,
  thread_ts: thread.threadTs,
  title,
  event_ts: eventTs,
  ...(user ? { user } : {}),
});

/** Each delivery ingested by a new workspace's shard, its run settled before the next; then `read` inside the shard. */
async function deliverInOrder<T>(
  deliveries: ((team: string) => Inbound)[],
  read: (shard: Awaited<ReturnType<typeof workspaceShardIn>>, team: string, clock: ReturnType<typeof controlClock>) => T,
) {
  const clock = controlClock();
  const team = newWorkspace();
  return runInDurableObject(shardStub(team), async (_, state) => {
    const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
    let current = { key: "", settled: latch<string>() };
    shard.delivery.events.subscribe((event) => {
      const settles = event.type === "delivered" || event.type === "parked";
      if (settles && event.key.includes(current.key) && event.key.includes(":run:")) current.settled.open(event.type);
    });
    for (const delivery of deliveries) {
      const inbound = delivery(team);
      current = { key: inbound.dedupeKey, settled: latch<string>() };
      await shard.recording.ingest(inbound);
      expect(await current.settled.opened).toBe("delivered");
    }
    return read(shard, team, clock);
  });
}

const renames = (channel: string) =>
  slack()
    .callsTo("agents.sessions.rename")
    .filter((call) => call.body.channel_id === channel)
    .map((call) => call.body.title);

describe("a session title its user chose, under the agent view", () => {
  it("is left alone by the app's setTitle: no agents.sessions.rename; { overwrite: true } renames it", async () => {
    const { channel } = dmThread();
    const root = dmRootMessage(channel, "Counting to 30");
    const thread = { channel, threadTs: root.ts };
    const overwriting = { ...dmRootMessage(channel, "!Counting to 40"), thread_ts: root.ts };
    await deliverInOrder(
      [
        (team) => eventDelivery(team, renamed(thread, "Bora Bora trip prep", root.ts.replace(/\d$/, "9"))),
        (team) => eventDelivery(team, root),
        (team) => eventDelivery(team, overwriting),
      ],
      () => undefined,
    );
    expect(renames(channel)).toEqual(["Counting to 40"]);
  });

  it("is the latest rename by Slack's event_ts: an older one delivered late changes nothing", async () => {
    const thread = dmThread();
    const kept = await deliverInOrder(
      [
        (team) => eventDelivery(team, renamed(thread, "Newer", "1783536990.000000")),
        (team) => eventDelivery(team, renamed(thread, "Older", "1783536980.000000")),
      ],
      (shard, team) => shard.threadContexts.store.userTitle?.({ team, ...thread }),
    );
    expect(kept).toBe("Newer");
  });

  it("is never the app's own rename (Slack naming its bot user): the app's setTitle goes through", async () => {
    const thread = dmThread();
    const kept = await deliverInOrder(
      [(team) => eventDelivery(team, renamed(thread, "Set by the app", "1783536990.000000", BOT_USER))],
      (shard, team) => shard.threadContexts.store.userTitle?.({ team, ...thread }),
    );
    expect(kept).toBeUndefined();
  });

  it("is pruned with the thread contexts, THREAD_CONTEXT_RETENTION_DAYS (90) after it was kept, and goes with the installation", async () => {
    const thread = dmThread();
    const rename = (team: string) => eventDelivery(team, renamed(thread, "Mine", "1783536990.000000"));
    const pruned = await deliverInOrder([rename], async (shard, team, clock) => {
      const before = shard.threadContexts.store.userTitle?.({ team, ...thread });
      clock.advance(91 * 24 * 3_600_000);
      await shard.alarm();
      return [before, shard.threadContexts.store.userTitle?.({ team, ...thread })];
    });
    expect(pruned).toEqual(["Mine", undefined]);
    const gone = await deliverInOrder([rename], (shard, team) => {
      shard.threadContexts.installationGone(team);
      return shard.threadContexts.store.userTitle?.({ team, ...thread });
    });
    expect(gone).toBeUndefined();
  });
});
