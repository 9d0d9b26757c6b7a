import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { AppMentionEvent } from "@slack/types";
import { vi } from "vitest";
import { App } from "../../src/app/App";
import type { EventArgs, RunArgs } from "../../src/app/listeners";
import type { Outbox } from "../../src/recording/outbox";
import { mentionIn } from "./inboundOf";
import { recordPlanned, shardIn } from "./shardIn";

export type MentionHandler = (args: RunArgs<EventArgs<AppMentionEvent>>) => Promise<void>;

/**
 * Runs `handler` for one app_mention in a fresh shard's real delivery loop under virtual time
 * (timers and Date faked: a model's pace and Slack's drop both follow it): `sweeps` sweeps, each
 * driven to its end a second of virtual time at a time, then `stepMs` more before the next.
 */
export async function timedMention(
  handler: MentionHandler,
  place: { channel: string; thread: string },
  options: {
    vars?: Record<string, string>;
    sweeps?: number;
    stepMs?: number;
    /** Before the first sweep, with the shard's storage. */
    setup?: (state: DurableObjectState) => void;
    /** After each sweep (before time moves on): what an operator or a deploy does between attempts. */
    inspect?: (outbox: Outbox, state: DurableObjectState, sweep: number) => void;
  } = {},
): Promise<void> {
  vi.useFakeTimers({
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    now: Date.now() + 3_600_000,
  });
  try {
    const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const app = new App().event("app_mention", handler);
    const stub = env.SHARD.get(env.SHARD.idFromName(`timed-${team}`));
    await runInDurableObject(stub, async (_, state) => {
      const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings: { SLACK_PACING: "false", ...options.vars } });
      recordPlanned(outbox, app, mentionIn(team, place.channel, place.thread, `Ev${team}`));
      options.setup?.(state);
      for (let i = 0; i < (options.sweeps ?? 1); i++) {
        let done = false;
        const sweep = Promise.resolve(loop.sweep(Date.now())).finally(() => (done = true));
        for (let s = 0; s < 3600 && !done; s++) await vi.advanceTimersByTimeAsync(1000);
        await sweep;
        options.inspect?.(outbox, state, i);
        await vi.advanceTimersByTimeAsync(options.stepMs ?? 60_000);
      }
    });
  } finally {
    vi.useRealTimers();
  }
}
