import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { Assistant } from "../../src/app/assistant/assistant";
import type { SlackApp } from "../../src/app/contract/slackApp";
import { RetryableError } from "../../src/platform/errors";
import { messageTs } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { latch } from "../support/latch";
import { workspaceShardIn } from "../support/shardIn";

const DAY_MS = 86_400_000;

/** An assistant thread of `team`: its DM channel and root. */
function assistantThread(team: string) {
  return { team, channel: `D${crypto.randomUUID().slice(0, 8).toUpperCase()}`, threadTs: messageTs() };
}

/** `assistant_thread_context_changed` in `thread`: the user now views `viewing`; Slack's `event_ts` as given. */
function contextChanged(thread: ReturnType<typeof assistantThread>, viewing: string, eventTs = messageTs()) {
  return eventDelivery(thread.team, {
    type: "assistant_thread_context_changed",
    assistant_thread: {
      user_id: "U0000USER",
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      context: { channel_id: viewing, team_id: thread.team },
    },
    event_ts: eventTs,
  });
}

/** Runs `work` on a workspace shard over `team`'s real storage, `app` served; `settled(key)` waits for a row's delivery. */
async function inShard<T>(
  team: string,
  app: SlackApp,
  work: (
    shard: Awaited<ReturnType<typeof workspaceShardIn>>,
    settled: (dedupeKey: string, type?: "delivered" | "retried") => Promise<void>,
    state: DurableObjectState,
  ) => Promise<T>,
): Promise<T> {
  return runInDurableObject(shardStub(team), async (_, state) => {
    const shard = await workspaceShardIn(state, { app });
    const waiting: { dedupeKey: string; type: string; open: () => void }[] = [];
    shard.delivery.events.subscribe((event) => {
      for (const wait of waiting) if (event.type === wait.type && event.key.startsWith(wait.dedupeKey)) wait.open();
    });
    const settled = (dedupeKey: string, type: "delivered" | "retried" = "delivered") => {
      const { open, opened } = latch();
      waiting.push({ dedupeKey, type, open });
      return opened;
    };
    return work(shard, settled, state);
  });
}

const assistantSaving = (threadContextChanged?: ConstructorParameters<typeof Assistant>[0]["threadContextChanged"]) =>
  new App().assistant(new Assistant({ threadStarted: async () => {}, userMessage: async () => {}, threadContextChanged }));

describe("thread contexts are ordered by Slack's event time", () => {
  it("a retried run of an older context change, saving after a newer one, leaves the newer context", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const thread = assistantThread(team);
    // Both in one second: only the microseconds of event_ts order them.
    const older = contextChanged(thread, "C000OLDER", messageTs());
    const newer = contextChanged(thread, "C000NEWER", messageTs());
    // The older change's first attempt fails for now (a model or store busy): it saves on its retry, last.
    const app = assistantSaving(async ({ saveThreadContext, attempt, body }) => {
      if (body.event_id === older.payload.event_id && attempt === 1) throw new RetryableError("busy for now");
      await saveThreadContext();
    });
    const saved = await inShard(team, app, async (shard, settled) => {
      const olderRetried = settled(older.dedupeKey, "retried");
      await shard.recording.ingest(older);
      await olderRetried;
      const newerSaved = settled(newer.dedupeKey);
      await shard.recording.ingest(newer);
      await newerSaved;
      const olderSaved = settled(older.dedupeKey);
      clock.advance(60_000);
      await shard.delivery.sweep(Date.now());
      await olderSaved;
      return shard.threadContexts.store.get(thread);
    });
    expect(saved).toEqual({ channel_id: "C000NEWER", team_id: team });
  });

  it("a later change saves over an earlier one", async () => {
    controlClock();
    const team = newWorkspace();
    const thread = assistantThread(team);
    const saved = await inShard(team, assistantSaving(), async (shard, settled) => {
      for (const viewing of ["C00000ONE", "C00000TWO"]) {
        const change = contextChanged(thread, viewing);
        const done = settled(change.dedupeKey);
        await shard.recording.ingest(change);
        await done;
      }
      return shard.threadContexts.store.get(thread);
    });
    expect(saved).toEqual({ channel_id: "C00000TWO", team_id: team });
  });
});

describe("thread contexts are kept THREAD_CONTEXT_RETENTION_DAYS (90 by default) after their last save", () => {
  it("the shard's alarm prunes a context saved 91 days ago and keeps one saved 31 days ago", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const old = assistantThread(team);
    const recent = assistantThread(team);
    const kept = await inShard(team, assistantSaving(), async (shard, settled) => {
      const save = async (thread: ReturnType<typeof assistantThread>) => {
        const change = contextChanged(thread, "C0000SEEN");
        const done = settled(change.dedupeKey);
        await shard.recording.ingest(change);
        await done;
      };
      await save(old);
      clock.advance(60 * DAY_MS);
      await save(recent);
      clock.advance(31 * DAY_MS);
      const before = [shard.threadContexts.store.get(old), shard.threadContexts.store.get(recent)];
      await shard.alarm();
      return { before, after: [shard.threadContexts.store.get(old), shard.threadContexts.store.get(recent)] };
    });
    expect(kept.before.filter(Boolean)).toHaveLength(2);
    expect(kept.after).toEqual([undefined, { channel_id: "C0000SEEN", team_id: team }]);
  });
});
