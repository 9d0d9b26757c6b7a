import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import type { SlackApp } from "../../src/app/contract";
import type { Inbound } from "../../src/inbound/types";
import type { WorkspaceShard } from "../../src/shard/workspaceShard";
import { blockActions, channelMessage, messageTs, slackId } from "../../src/testing/deliveries";
import { assistantThreadMessage, USER } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery, inboundOf } from "../support/inboundOf";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 41, point 4b: per-user and per-workspace turn budgets (`limits`), counted in the shard as
// a delivery is first recorded. A turn over its budget is not run: its user gets an ephemeral (or
// the app's own `exceeded` answer runs), and the shard counts it in `turnsRefused`.

const slack = useFakeSlack();
const OTHER = "U0000OTHER";
const MINUTE_MS = 60_000;

/** Each message is answered with "answer: TEXT" (a turn, under the app's limits unless the listener has its own). */
const answering = (limits: ConstructorParameters<typeof App>[0]) =>
  new App(limits).message(async ({ message, say }) => {
    await say(`answer: ${(message as { text?: string }).text}`);
  });

const said = () =>
  slack()
    .callsTo("chat.postMessage")
    .map((call) => call.body.text);
const ephemerals = () =>
  slack()
    .callsTo("chat.postEphemeral")
    .map((call) => ({ user: call.body.user, thread_ts: call.body.thread_ts, text: String(call.body.text) }));

/** Ingests `inbound` and waits until its one row (its run, or its refusal) is delivered; the ingest's verdict. */
async function answered(shard: WorkspaceShard, inbound: Inbound): Promise<string> {
  const delivered = new Promise<void>((resolve) =>
    shard.delivery.events.subscribe((event) => {
      if (event.type === "delivered" && event.key.startsWith(`${inbound.dedupeKey}:`)) resolve();
    }),
  );
  const { verdict } = await shard.recording.ingest(inbound);
  if (verdict === "accepted") await delivered;
  return verdict;
}

const messageIn = (team: string, channel: string, text: string, user = USER, threadTs?: string) =>
  eventDelivery(team, { ...channelMessage({ text, channel, user }), ...(threadTs ? { thread_ts: threadTs } : {}) });

const budgetRows = (state: DurableObjectState) =>
  state.storage.sql
    .exec<{ scope: string; key: string; minute_count: number; day_count: number }>(
      "SELECT scope, key, minute_count, day_count FROM turn_budgets ORDER BY scope, key",
    )
    .toArray();

async function inShard<T>(app: SlackApp, test: (shard: WorkspaceShard, state: DurableObjectState, team: string) => Promise<T>) {
  const team = newWorkspace();
  return runInDurableObject(shardStub(team), async (_, state) => test(await workspaceShardIn(state, { app }), state, team));
}

describe("turn budgets (`limits`)", () => {
  it("a user's 3rd message in a minute past perMinute 2 gets the ephemeral and no run; another user is not affected; the next minute it runs again", async () => {
    const clock = controlClock();
    clock.advance(MINUTE_MS - (clock.now() % MINUTE_MS) + 1_000); // early in a minute: the first three share it
    const app = answering({ limits: { turnsPerUser: { perMinute: 2 } } });
    const outcome = await inShard(app, async (shard, state, team) => {
      const channel = "C0000BUDGET";
      for (const text of ["one", "two", "three"]) expect(await answered(shard, messageIn(team, channel, text))).toBe("accepted");
      await answered(shard, messageIn(team, channel, "theirs", OTHER));
      const inTheMinute = { said: said(), ephemerals: ephemerals(), rows: budgetRows(state) };
      const { counters } = shard.operations.stats();
      const minute = shard.metrics.metricsSince(0).live?.counts;
      clock.advance(MINUTE_MS);
      await answered(shard, messageIn(team, channel, "four"));
      return { inTheMinute, refused: { stats: counters.turnsRefused, minute: minute?.turnsRefused }, after: said() };
    });
    expect(outcome.inTheMinute.said).toEqual(["answer: one", "answer: two", "answer: theirs"]);
    expect(outcome.inTheMinute.ephemerals).toEqual([
      {
        user: USER,
        thread_ts: undefined,
        text: expect.stringMatching(
          /^Sorry, you have reached your limit of 2 messages a minute, .* It resets at <!date\^\d+\^\{time\}\|\d\d:\d\d UTC>\.$/,
        ),
      },
    ]);
    // Only the turns that ran are counted: the refused one is not.
    expect(outcome.inTheMinute.rows).toEqual([
      { scope: "user", key: OTHER, minute_count: 1, day_count: 1 },
      { scope: "user", key: USER, minute_count: 2, day_count: 2 },
    ]);
    expect(outcome.refused).toEqual({ stats: 1, minute: 1 });
    expect(outcome.after).toEqual(["answer: one", "answer: two", "answer: theirs", "answer: four"]);
  });

  it("a per-workspace limit refuses every user once the workspace's day is spent, in the message's thread; the day's end resets it", async () => {
    const clock = controlClock();
    const app = answering({ limits: { turnsPerWorkspace: { perDay: 2 } } });
    const outcome = await inShard(app, async (shard, state, team) => {
      const root = messageTs();
      await answered(shard, messageIn(team, "C0000A", "one"));
      await answered(shard, messageIn(team, "C0000B", "two", OTHER));
      await answered(shard, messageIn(team, "C0000A", "three", "U0000THIRD", root));
      const spent = { said: said(), ephemerals: ephemerals(), rows: budgetRows(state) };
      clock.advance(86_400_000);
      await answered(shard, messageIn(team, "C0000A", "next day", "U0000THIRD"));
      return { spent, root, after: said() };
    });
    expect(outcome.spent.said).toEqual(["answer: one", "answer: two"]);
    expect(outcome.spent.ephemerals).toEqual([
      {
        user: "U0000THIRD",
        thread_ts: outcome.root,
        text: expect.stringMatching(
          /^Sorry, this workspace has reached its limit of 2 messages a day, .*\{date_short_pretty\} at \{time\}/,
        ),
      },
    ]);
    expect(outcome.spent.rows).toEqual([{ scope: "workspace", key: expect.any(String), minute_count: 2, day_count: 2 }]);
    expect(outcome.after).toEqual(["answer: one", "answer: two", "answer: next day"]);
  });

  it("a retried delivery (X-Slack-Retry-Num) is a duplicate and is not counted again", async () => {
    controlClock();
    const app = answering({ limits: { turnsPerUser: { perMinute: 2 } } });
    const outcome = await inShard(app, async (shard, state, team) => {
      const first = messageIn(team, "C0000RETRY", "one");
      await answered(shard, first);
      const retry = await answered(shard, { ...first, retryNum: 1, retryReason: "http_timeout" });
      const rows = budgetRows(state);
      await answered(shard, messageIn(team, "C0000RETRY", "two"));
      return { retry, rows, said: said(), ephemerals: ephemerals() };
    });
    expect(outcome.retry).toBe("duplicate");
    expect(outcome.rows).toEqual([{ scope: "user", key: USER, minute_count: 1, day_count: 1 }]);
    expect(outcome.said).toEqual(["answer: one", "answer: two"]);
    expect(outcome.ephemerals).toEqual([]);
  });

  it("the app's own answer: a listener's `exceeded` runs durably with the limit, instead of the listener and of the ephemeral", async () => {
    controlClock();
    const app = new App({ limits: { turnsPerWorkspace: { perMinute: 50 } } }).message({
      limits: {
        turnsPerUser: { perDay: 1 },
        exceeded: async ({ say, limit, context }) => {
          await say(
            `<@${context.userId}>: ${limit.max} a ${limit.window} per ${limit.scope}, again after ${limit.resetsAt % 86_400_000}`,
          );
        },
      },
      run: async ({ say }) => {
        await say("answered");
      },
    });
    const outcome = await inShard(app, async (shard, state, team) => {
      await answered(shard, messageIn(team, "C0000OWN", "one"));
      await answered(shard, messageIn(team, "C0000OWN", "two"));
      return { said: said(), ephemerals: ephemerals(), rows: budgetRows(state) };
    });
    expect(outcome.said).toEqual(["answered", `<@${USER}>: 1 a day per user, again after 0`]);
    expect(outcome.ephemerals).toEqual([]);
    // The listener's limits are over the app's field by field: the workspace's count goes on too.
    expect(outcome.rows.map((row) => [row.scope, row.day_count])).toEqual([
      ["user", 1],
      ["workspace", 1],
    ]);
  });

  it("an assistant's user messages are counted under `app.assistant({ limits })`; a click on a button never is", async () => {
    controlClock();
    const app = new App()
      .assistant({
        threadStarted: async () => {},
        userMessage: async ({ say, message }) => {
          await say(`answer: ${(message as { text?: string }).text}`);
        },
        limits: { turnsPerUser: { perMinute: 1 } },
      })
      .action("go", { limits: { turnsPerUser: { perMinute: 1 } }, run: async ({ say }) => void (await say("clicked")) });
    const click = (team: string) =>
      inboundOf("interaction", "block_actions", blockActions({ teamId: team, actionId: "go", channel: "C0000GO" }), {
        team,
        id: slackId("13345224609."),
      });
    const outcome = await inShard(app, async (shard, state, team) => {
      const thread = { channel: "D0000DM", threadTs: messageTs() };
      await answered(shard, eventDelivery(team, assistantThreadMessage(thread, "one")));
      await answered(shard, eventDelivery(team, assistantThreadMessage(thread, "two")));
      for (let i = 0; i < 2; i++) await answered(shard, click(team));
      return { said: said(), ephemerals: ephemerals(), rows: budgetRows(state) };
    });
    expect(outcome.said).toEqual(["answer: one", "clicked", "clicked"]);
    expect(outcome.ephemerals).toEqual([
      { user: USER, thread_ts: expect.any(String), text: expect.stringContaining("1 message a minute") },
    ]);
    expect(outcome.rows).toEqual([{ scope: "user", key: USER, minute_count: 1, day_count: 1 }]);
  });

  it("costs one row written per counted scope, and nothing for an app without limits", async () => {
    controlClock();
    const written = async (app: SlackApp) =>
      inShard(app, async (shard, _, team) => {
        const before = shard.operations.stats().counters.rowsWritten;
        await answered(shard, messageIn(team, "C0000COST", "one"));
        return shard.operations.stats().counters.rowsWritten - before;
      });
    const without = await written(answering({}));
    const perUser = await written(answering({ limits: { turnsPerUser: { perMinute: 5 } } }));
    const both = await written(answering({ limits: { turnsPerUser: { perMinute: 5 }, turnsPerWorkspace: { perDay: 500 } } }));
    expect({ perUser: perUser - without, both: both - without }).toEqual({ perUser: 1, both: 2 });
  });

  it("rows of a UTC day that is over go with the hourly prune; today's stay", async () => {
    const clock = controlClock();
    const app = answering({ limits: { turnsPerUser: { perMinute: 5 } } });
    const outcome = await inShard(app, async (shard, state, team) => {
      await answered(shard, messageIn(team, "C0000PRUNE", "one"));
      shard.delivery.parts.prune(Date.now());
      const today = budgetRows(state).length;
      clock.advance(86_400_000);
      shard.delivery.parts.prune(Date.now());
      return { today, tomorrow: budgetRows(state).length };
    });
    expect(outcome).toEqual({ today: 1, tomorrow: 0 });
  });

  it("the limits' shape is checked", () => {
    // @ts-expect-error: a window is perMinute or perDay
    const hourly = new App({ limits: { turnsPerUser: { perHour: 5 } } });
    // @ts-expect-error: a window's maximum is a number
    const worded = new App().message({ limits: { turnsPerWorkspace: { perMinute: "2" } }, run: async () => {} });
    // @ts-expect-error: `exceeded` is the app's own answer, a function
    const text = new App({ limits: { turnsPerUser: { perDay: 1 }, exceeded: "Slow down." } });
    expect([hourly, worded, text]).toHaveLength(3);
  });
});
