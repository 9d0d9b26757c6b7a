import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { MessageMetadata } from "@slack/types";
import { vi } from "vitest";
import { App } from "../../src/app/App";
import type { SlackApp } from "../../src/app/contract/slackApp";
import { FakeSlack } from "../../src/testing/fakeSlack";
import { controlClock } from "./clock";
import { mentionIn } from "./inboundOf";
import { recordPlanned, shardIn } from "./shardIn";
import { FAKE_SLACK_ORIGIN, LEASE_MS } from "./testBindings";

/**
 * The uncertain posts' harness (test/delivery/uncertainPosts*.test.ts): mentions recorded in a
 * fresh shard of TEAM, swept by its real delivery loop on a held clock against a fake Slack —
 * optionally as rows an immediate attempt held when its isolate died (`crashed`), so the sweep
 * takes them over once their lease runs out.
 */

export const CHANNEL = "C0UNCERTAIN";
export const TEAM = "T0UNCERTAIN";

export interface UncertainRun {
  slack: FakeSlack;
  rows: () => Promise<Array<Record<string, unknown>>>;
  /** The delivery events, in order (`postponed`, `retried`, `delivered`, …). */
  events: string[];
  /** When the mentions were recorded, on the held clock. */
  recordedAt: number;
  /** The shard's name (`{team}/0`): what its log lines name. */
  shard: string;
}

export interface UncertainRunOptions {
  slack?: FakeSlack;
  settings?: Record<string, string>;
  sweeps?: number;
  stepMs?: number;
  /** The mentions' rows were leased to an attempt whose isolate died: they are taken over once the lease runs out. */
  crashed?: boolean;
  /** What the dead attempt did in Slack before it died, given the rows' keys. */
  beforeTheCrash?: (slack: FakeSlack, keys: string[]) => Promise<void>;
}

/** A mention in thread `ts` answered by one reply in it, outside any step. */
export const replying = (metadata?: MessageMetadata) =>
  new App().event("app_mention", async ({ event, say }) => {
    await say({ text: `reply to ${String(event!.ts)}`, thread_ts: String(event!.ts), ...(metadata ? { metadata } : {}) });
  });

/** The texts of the replies in thread `ts` of CHANNEL, oldest first. */
export const replies = (slack: FakeSlack, ts: string) =>
  slack
    .messagesIn(CHANNEL, ts)
    .filter((m) => m.ts !== ts)
    .map((m) => m.text);

/** The key of the run row a mention of event `id` plans (`{event_id}:run:event:app_mention`). */
export const runKeyOf = (id: string) => `${id}:run:event:app_mention`;

/** Records a mention per thread of `threads` (event ids `EvUncertain{i}`) and sweeps `sweeps` times, `stepMs` apart. */
export async function answerMentions(
  app: SlackApp,
  threads: string[],
  {
    slack = new FakeSlack(FAKE_SLACK_ORIGIN),
    settings = {},
    sweeps = 8,
    stepMs = 30_000,
    crashed = false,
    beforeTheCrash,
  }: UncertainRunOptions = {},
): Promise<UncertainRun> {
  const clock = controlClock();
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => slack.fetch(input as Request, init));
  const stub = env.SHARD.get(env.SHARD.idFromName(`uncertain-${crypto.randomUUID()}`));
  const events: string[] = [];
  const shard = `${TEAM}/0`;
  const recordedAt = clock.now();
  await runInDurableObject(stub, async (_, state) => {
    const loop = shardIn(state, { name: shard, app, settings: { SLACK_PACING: "false", ...settings } });
    loop.loop.events.subscribe((event) => events.push(`${event.type}${"step" in event ? ` ${event.step}` : ""}`));
    const lease = crashed ? { token: "died-with-its-isolate", expiresAt: recordedAt + LEASE_MS } : null;
    const ids = threads.map((_, i) => `EvUncertain${i}`);
    for (const [i, ts] of threads.entries()) recordPlanned(loop.outbox, app, mentionIn(TEAM, CHANNEL, ts, ids[i]!), lease);
    if (crashed) {
      await beforeTheCrash?.(slack, ids.map(runKeyOf));
      clock.advance(LEASE_MS);
    }
    for (let i = 0; i < sweeps; i++) {
      await loop.loop.sweep(Date.now());
      if (loop.outbox.countsByStatus().pending === 0) break;
      clock.advance(stepMs);
    }
  });
  const rows = () =>
    runInDurableObject(
      stub,
      (_, state) =>
        state.storage.sql.exec("SELECT * FROM outbox WHERE done_at IS NULL").toArray() as Array<Record<string, unknown>>,
    );
  return { slack, rows, events, recordedAt, shard };
}
