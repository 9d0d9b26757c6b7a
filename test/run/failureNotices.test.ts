import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App, type AppOptions } from "../../src/app/App";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { latch } from "../support/latch";
import { workspaceShardIn } from "../support/shardIn";
import { HANDLER_MAX_ATTEMPTS, TEST_BINDINGS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

afterEach(() => {
  vi.restoreAllMocks();
});

const RETRYING = "Still on it: something failed, trying again.";
const FAILED = "Sorry, I could not answer this.";

/** A run that throws on its first `failures` attempts, then answers (never, by default). */
function failing(failures = Infinity) {
  return async ({ attempt, say }: { attempt: number; say(text: string): Promise<unknown> }) => {
    if (attempt <= failures) throw new TypeError("the model is gone");
    await say("the answer");
  };
}

interface Answering {
  /** A user's message in the app's DM, not a mention in a channel. */
  im?: boolean;
  settings?: Record<string, string>;
  /** Once parked, the run is replayed by an operator and fails again. */
  replay?: boolean;
}

/**
 * `app` answers a mention in a channel (or a message in its DM) of a fresh workspace, driven until
 * its run is delivered or parked (its retries a minute apart on the held clock), its follow-ups
 * delivered. Returns the thread's posts' texts and the run's rows as parked.
 */
async function answer(app: App, { im = false, settings = {}, replay = false }: Answering = {}) {
  const clock = controlClock();
  const team = newWorkspace();
  const ts = messageTs();
  const before = slack().calls.length;
  const inbound = im
    ? eventDelivery(team, { ...channelMessage({ text: "help", ts, channel: "D0AGENT" }), channel_type: "im" })
    : eventDelivery(team, { type: "app_mention", user: "U0ASKER", channel: "C0ASK", ts, text: "<@U0BOT> help" });
  const parked = await runInDurableObject(shardStub(team), async (_, state) => {
    const shard = await workspaceShardIn(state, { app, settings });
    const settled = latch();
    shard.delivery.events.subscribe((event) => {
      if (event.type !== "postponed") settled.open();
    });
    await shard.recording.ingest(inbound);
    await settled.opened;
    // Each sweep performs what is due and awaits it: the retries, the parking, the notices.
    const sweeps = async () => {
      for (let i = 0; i < HANDLER_MAX_ATTEMPTS + 2; i++) {
        clock.advance(60_000);
        await shard.delivery.sweep(Date.now());
      }
    };
    await sweeps();
    if (replay && shard.operations.replayParked(null) === 1) await sweeps();
    return shard.operations.listParked();
  });
  const posts = slack()
    .calls.slice(before)
    .filter((call) => call.method === "chat.postMessage");
  const channel = im ? "D0AGENT" : "C0ASK";
  // The notices go to the run's thread (the answer, `say`'s, to its channel).
  for (const post of posts)
    expect(post.body).toMatchObject(post.body.text === "the answer" ? { channel } : { channel, thread_ts: ts });
  return { texts: posts.map((post) => post.body.text), parked };
}

describe("a run whose handler throws", () => {
  it("logs its first failed attempt at warn with the reason, its later retries at info", async () => {
    const lines = { warn: vi.spyOn(console, "warn"), info: vi.spyOn(console, "log") };
    const { parked } = await answer(new App().event("app_mention", failing()));
    expect(parked).toHaveLength(1);
    const retries = (spy: (typeof lines)["warn"]) =>
      spy.mock.calls
        .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
        .filter((line) => line.msg === "effect will be retried");
    expect(retries(lines.warn)).toEqual([
      expect.objectContaining({
        level: "warn",
        effect: "run",
        attempts: 1,
        reason: expect.stringMatching(/^handler "event:app_mention" threw TypeError: the model is gone/),
      }),
    ]);
    expect(retries(lines.info).map((line) => [line.level, line.attempts])).toEqual(
      Array.from({ length: HANDLER_MAX_ATTEMPTS - 2 }, (_, i) => ["info", i + 2]),
    );
  });
});

describe("failure notices", () => {
  it("on: the user is told once that the answer is delayed, and once that it failed when it is parked", async () => {
    expect(HANDLER_MAX_ATTEMPTS).toBeGreaterThan(2);
    const options: AppOptions = { failureNotices: { runs: "all", retrying: RETRYING, failed: FAILED } };
    // Replayed by an operator, it fails and parks again: its user is not told again.
    const { texts, parked } = await answer(new App(options).event("app_mention", failing()), { replay: true });
    expect(parked).toMatchObject([{ attempts: HANDLER_MAX_ATTEMPTS }]);
    expect(texts).toEqual([RETRYING, FAILED]);
  });

  it("a transient failure the first retry gets past shows only the answer; a second failure tells the user once", async () => {
    const transient = await answer(new App({ failureNotices: true }).event("app_mention", failing(1)));
    expect(transient).toEqual({ texts: ["the answer"], parked: [] });
    const { texts, parked } = await answer(new App({ failureNotices: true }).event("app_mention", failing(2)));
    expect(parked).toEqual([]);
    expect(texts).toEqual([await defaultText("RUN_RETRYING_TEXT"), "the answer"]);
  });

  it("off by default outside agents' runs, and off when the app or the listener says so", async () => {
    expect((await answer(new App().event("app_mention", failing()))).texts).toEqual([]);
    expect((await answer(new App({ failureNotices: false }).message(failing()), { im: true })).texts).toEqual([]);
    const app = new App({ failureNotices: true }).event("app_mention", { failureNotices: false, run: failing() });
    expect((await answer(app)).texts).toEqual([]);
    const assistant = new App().assistant({ threadStarted: async () => {}, userMessage: failing(), failureNotices: false });
    expect((await answer(assistant, { im: true })).texts).toEqual([]);
  });

  it("on by default in an agent's runs: a user's message in the app's DM, an agent listener's, with AGENT_SESSIONS; a listener's words win", async () => {
    const defaults = [await defaultText("RUN_RETRYING_TEXT"), await defaultText("RUN_PARKED_TEXT")];
    expect((await answer(new App().message(failing()), { im: true })).texts).toEqual(defaults);
    const declared = new App().event("app_mention", { agent: true, run: failing() });
    expect((await answer(declared)).texts).toEqual(defaults);
    const worded = new App({ failureNotices: { retrying: "app's" } }).event("app_mention", {
      failureNotices: { retrying: RETRYING },
      run: failing(),
    });
    const session = await answer(worded, { settings: { AGENT_SESSIONS: "true", RUN_PARKED_TEXT: FAILED } });
    expect(session.texts).toEqual([RETRYING, FAILED]);
  });
});

/** A setting's default wording, as the settings table gives it. */
async function defaultText(name: "RUN_RETRYING_TEXT" | "RUN_PARKED_TEXT"): Promise<string> {
  const { SETTINGS } = await import("../../src/settings/table");
  expect(name in TEST_BINDINGS).toBe(false);
  return SETTINGS[name].read.read({}, name) as string;
}
