import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { App } from "../../src/app/App";
import type { SlackApp } from "../../src/app/contract/slackApp";
import { deliverLeased } from "../../src/delivery/deliverClaimed";
import type { Inbound } from "../../src/inbound/types";
import { recordPlanned, shardIn } from "./shardIn";
import { LEASE_MS } from "./testBindings";

/**
 * Runs `fn` with timers and Date faked from an hour ahead of real time (its alarms lie in the
 * real future), so answers that wait their turns for minutes take no real time.
 */
export async function withFakeTimers<T>(fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    now: Date.now() + 3_600_000,
  });
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

/**
 * `inbounds` recorded by a fresh shard of `team` and delivered by its real delivery loop (pacing
 * on, as deployed) all at once, as mentions arriving together are: each delivery's immediate
 * attempt runs concurrently while fake time passes a second at a time. Asserts every one was
 * delivered at its first attempt, none retried, postponed or parked. Call within withFakeTimers.
 */
export async function answerAtOnce(team: string, app: SlackApp, inbounds: Inbound[], vars: Record<string, string> = {}) {
  const stub = env.SHARD.get(env.SHARD.idFromName(`at-once-${team}`));
  await runInDurableObject(stub, async (_, state) => {
    const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings: vars });
    const attempts = inbounds.map((inbound) => {
      const lease = { token: crypto.randomUUID(), expiresAt: Date.now() + LEASE_MS };
      return deliverLeased(loop.ready!.courier, lease.token, recordPlanned(outbox, app, inbound, lease));
    });
    let done = false;
    const all = Promise.all(attempts).then(() => (done = true));
    for (let i = 0; i < 1000 && !done; i++) await vi.advanceTimersByTimeAsync(1000);
    await all;
    expect(outbox.countsByStatus()).toMatchObject({ pending: 0, parked: 0 });
    expect(loop.counters).toMatchObject({ delivered: inbounds.length, retried: 0, postponed: 0, parked: 0 });
  });
}

/** An app answering each mention with `text` through `sayStream()`, a token every 50 ms (a model's pace), then `stop({ blocks })`. */
export function answeringAtModelPace(text: readonly string[], blocks?: unknown[]): App {
  return new App().event("app_mention", async ({ sayStream }) => {
    const streamer = sayStream();
    for (const token of text) {
      await streamer.append({ markdown_text: token });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await streamer.stop(blocks ? { blocks: blocks as never } : {});
  });
}
