import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { OutboxSteps } from "../../src/recording/outboxSteps";
import { FakeSlack } from "../../src/testing/fakeSlack";
import { controlClock } from "../support/clock";
import { mentionIn } from "../support/inboundOf";
import { recordPlanned, shardIn } from "../support/shardIn";
import { FAKE_SLACK_ORIGIN, LEASE_MS } from "../support/testBindings";
import { CHANNEL, replies, TEAM } from "../support/uncertainRun";

// Issue 43, point 2: a step whose only work was one post a lookup can find is checkpointed by its
// attempt's next write (a retry's, a park's, a suspension's, a stop's UPDATE), not by a row of its own.

const THREAD = "1700000000.000100";
const ID = "EvPostStep";
const settings = { SLACK_PACING: "false" };
afterEach(() => vi.restoreAllMocks());

/** A mention's run (its tools), every attempt numbered (1, 2, …): answered by `run`. */
type Run = Parameters<Extract<Parameters<App["event"]>[1], (...args: never[]) => unknown>>[0];
function mentionApp(run: (args: Run, attempt: number) => Promise<void>) {
  let attempt = 0;
  return new App().event("app_mention", (args) => run(args as Run, ++attempt));
}

/** Bolt's placeholder, as the demo answers: posted in a step (only), then updated in place. */
const placeholder = ({ say }: Run) => say({ text: "Working on it…", thread_ts: THREAD });
const update = ({ client }: Run, ts: string) => client.chat.update({ channel: CHANNEL, ts, text: "done" });
/** The message the fake Slack keeps in the thread with `text`: its ts. */
const tsOf = (slack: FakeSlack, text: string) => slack.messagesIn(CHANNEL, THREAD).find((message) => message.text === text)?.ts;

/** A fresh shard with the mention recorded, answered by `app` against `slack`; `drive` runs its delivery. */
async function inShard<T>(
  app: App,
  slack: FakeSlack,
  drive: (shard: {
    sweep(): Promise<void>;
    /** The run's row while it is live (a delivered row is kept, done). */
    row(): Record<string, unknown> | undefined;
    later(): ReturnType<typeof shardIn>;
  }) => Promise<T>,
): Promise<T> {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => slack.fetch(input as Request, init));
  const stub = env.SHARD.get(env.SHARD.idFromName(`post-steps-${crypto.randomUUID()}`));
  return runInDurableObject(stub, async (_, state) => {
    const first = shardIn(state, { name: `${TEAM}/0`, app, settings });
    recordPlanned(first.outbox, app, mentionIn(TEAM, CHANNEL, THREAD, ID));
    return drive({
      sweep: async () => {
        await first.loop.sweep(Date.now());
      },
      row: () => state.storage.sql.exec("SELECT * FROM outbox WHERE done_at IS NULL").toArray()[0],
      // Another instance of the shard, as after the first one died (its attempts never settle).
      later: () => shardIn(state, { name: `${TEAM}/0`, app, settings }),
    });
  });
}

describe("a step whose only work was one findable post", () => {
  it("a run failing after it: the retry's UPDATE writes the step, and the retry updates the same message without a lookup", async () => {
    const clock = controlClock();
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN).fail({ method: "chat.update" }, { status: 500 }, 1);
    const app = mentionApp(async (args) => {
      await update(args, (await args.step("placeholder", () => placeholder(args))).ts);
    });
    const recordStep = vi.spyOn(OutboxSteps.prototype, "recordStep");
    const afterFirst = await inShard(app, slack, async (shard) => {
      await shard.sweep();
      const row = shard.row()!;
      clock.advance(60_000);
      await shard.sweep();
      return { row, left: shard.row() };
    });
    // The one message in the thread, updated in place.
    const [message, ...more] = slack.messagesIn(CHANNEL, THREAD).filter((shown) => shown.ts !== THREAD);
    const ts = message!.ts;
    expect(more).toEqual([]);
    // Written by the retry's own UPDATE, with its post known: not uncertain, not written by a row of its own.
    expect(afterFirst.row).toMatchObject({ attempts: 1, posts_uncertain_since: null });
    expect(JSON.parse(String(afterFirst.row.steps))).toEqual({ placeholder: expect.objectContaining({ ts }) });
    expect(recordStep).not.toHaveBeenCalled();
    // The retry read it back: one post, no lookup, the same message updated.
    expect(slack.callsTo("chat.postMessage")).toHaveLength(1);
    expect(slack.callsTo("conversations.replies")).toHaveLength(0);
    expect(slack.callsTo("chat.update").map((call) => [call.body.ts, call.outcome])).toEqual([
      [ts, expect.stringContaining("500")],
      [ts, "ok"],
    ]);
    expect(afterFirst.left).toBeUndefined();
  });

  it("an attempt that dies after it: nothing was written, and the take-over finds the post by lookup — posted once, the same ts", async () => {
    const clock = controlClock();
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN);
    const app = mentionApp(async (args, attempt) => {
      const { ts } = await args.step("placeholder", () => placeholder(args));
      // The first attempt's isolate dies here: it never settles.
      if (attempt === 1) await new Promise(() => {});
      await update(args, ts);
    });
    const outcome = await inShard(app, slack, async (shard) => {
      void shard.sweep();
      await vi.waitFor(() => expect(slack.callsTo("chat.postMessage")).toHaveLength(1));
      const steps = shard.row()!.steps;
      const later = shard.later();
      clock.advance(LEASE_MS + 1);
      await later.loop.sweep(Date.now());
      return { steps, left: shard.row() };
    });
    expect(outcome.steps).toBe("{}");
    expect(slack.callsTo("chat.postMessage")).toHaveLength(1);
    expect(slack.callsTo("conversations.replies")).toHaveLength(1);
    expect(replies(slack, THREAD)).toEqual(["done"]);
    expect(slack.callsTo("chat.update").map((call) => call.body.ts)).toEqual([tsOf(slack, "done")]);
    expect(outcome.left).toBeUndefined();
  });

  it("any other step is written at once: a crash runs none of them again", async () => {
    const clock = controlClock();
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN);
    const ran: string[] = [];
    const app = mentionApp(async (args, attempt) => {
      const { step, say, client } = args;
      const inThread = (text: string) => ({ text, thread_ts: THREAD });
      const counted = <T>(name: string, fn: () => Promise<T> | T) =>
        step(name, () => {
          ran.push(name);
          return fn();
        });
      await counted("plain", () => 42);
      await counted("after-an-await", async () => say(inThread(await Promise.resolve("awaited first"))));
      await counted("two-posts", async () => {
        const first = await say(inThread("one"));
        await say(inThread("two"));
        return first;
      });
      await counted("the-ts-only", () => say(inThread("ts")).then((answer) => answer.ts));
      await counted("a-post-and-a-read", async () => {
        const posted = await say(inThread("and a read"));
        await client.users.info({ user: "U0SOMEONE" });
        return posted;
      });
      await counted("the-post", () => say(inThread("kept")));
      if (attempt === 1) await new Promise(() => {});
    });
    const steps = await inShard(app, slack, async (shard) => {
      void shard.sweep();
      await vi.waitFor(() => expect(ran).toContain("the-post"));
      await vi.waitFor(() => expect(JSON.parse(String(shard.row()!.steps))).toHaveProperty("a-post-and-a-read"));
      const written = Object.keys(JSON.parse(String(shard.row()!.steps))).sort();
      const later = shard.later();
      clock.advance(LEASE_MS + 1);
      await later.loop.sweep(Date.now());
      return written;
    });
    expect(steps).toEqual(["a-post-and-a-read", "after-an-await", "plain", "the-ts-only", "two-posts"]);
    // After the take-over only the kept one ran again — its post found, not made twice.
    expect(ran).toEqual(["plain", "after-an-await", "two-posts", "the-ts-only", "a-post-and-a-read", "the-post", "the-post"]);
    expect(replies(slack, THREAD)).toEqual(["awaited first", "one", "two", "ts", "and a read", "kept"]);
  });
});
