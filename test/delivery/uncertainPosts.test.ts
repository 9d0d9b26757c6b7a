import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { FakeSlack } from "../../src/testing/fakeSlack";
import { controlClock } from "../support/clock";
import { mentionIn } from "../support/inboundOf";
import { recordPlanned, shardIn } from "../support/shardIn";
import { FAKE_SLACK_ORIGIN, LEASE_MS } from "../support/testBindings";
import { answerMentions, CHANNEL, replies, replying, TEAM } from "../support/uncertainRun";

/**
 * Uncertain posts (issue 29), case by case: where they are marked, a lookup that finds the post
 * and one that does not, a lookup refused by its tier or paced at SLACK_HISTORY_PER_MINUTE (when
 * SLACK_HISTORY_MAX_WAIT_MS lets it wait: lookupBound.test.ts when it does not), a workspace
 * without the history scopes, the app's own metadata. Each drives one shard's real
 * delivery loop against a fake Slack; the fault matrix (postFaultMatrix.test.ts) runs every fault
 * at every call.
 */

const THREAD = "1700000000.000100";

describe("an uncertain post is looked for before it is posted again", () => {
  it("an answer lost after Slack posted: the retry finds the post in the thread and posts nothing", async () => {
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN).fail({ method: "chat.postMessage" }, { lostAnswer: "reset" }, 1);
    const run = await answerMentions(replying(), [THREAD], { slack });
    expect(replies(slack, THREAD)).toEqual([`reply to ${THREAD}`]);
    expect(slack.callsTo("chat.postMessage")).toHaveLength(1);
    expect(slack.callsTo("conversations.replies")).toHaveLength(1);
    expect(slack.callsTo("conversations.replies")[0]!.body).toMatchObject({
      channel: CHANNEL,
      ts: THREAD,
      include_all_metadata: "true",
    });
    expect(await run.rows()).toEqual([]);
  });

  it("a 500 before Slack posted: the retry looks, does not find it, and posts once", async () => {
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN).fail({ method: "chat.postMessage" }, { status: 500 }, 1);
    await answerMentions(replying(), [THREAD], { slack });
    expect(replies(slack, THREAD)).toEqual([`reply to ${THREAD}`]);
    expect(slack.callsTo("conversations.replies")).toHaveLength(1);
    expect(slack.callsTo("chat.postMessage").map((call) => call.applied)).toEqual([false, true]);
  });

  it("a refusal Slack answered (channel_not_found, a 429) is certain: no lookup", async () => {
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN).fail({ method: "chat.postMessage" }, { status: 429, retryAfter: 1 }, 1);
    await answerMentions(replying(), [THREAD], { slack });
    expect(replies(slack, THREAD)).toEqual([`reply to ${THREAD}`]);
    expect(slack.callsTo("conversations.replies")).toHaveLength(0);
  });

  it("a lookup refused by its tier (429) waits for Retry-After within SLACK_HISTORY_MAX_WAIT_MS, posting nothing meanwhile, then finds the post", async () => {
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN)
      .fail({ method: "chat.postMessage" }, { lostAnswer: "serverError" }, 1)
      .fail({ method: "conversations.replies" }, { status: 429, retryAfter: 120 }, 1);
    await answerMentions(replying(), [THREAD], { slack, settings: { SLACK_HISTORY_MAX_WAIT_MS: "300000" } });
    const [refused, looked] = slack.callsTo("conversations.replies");
    expect(refused!.status).toBe(429);
    expect(looked!.at - refused!.at).toBeGreaterThanOrEqual(120_000);
    expect(slack.callsTo("chat.postMessage")).toHaveLength(1);
    expect(replies(slack, THREAD)).toEqual([`reply to ${THREAD}`]);
  });

  it("paced at SLACK_HISTORY_PER_MINUTE=1: a second uncertain row waits a minute for its lookup within SLACK_HISTORY_MAX_WAIT_MS, and posts nothing blindly", async () => {
    const other = "1700000000.000200";
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN).fail({ method: "chat.postMessage" }, { lostAnswer: "hang" }, 2);
    const run = await answerMentions(replying(), [THREAD, other], {
      slack,
      settings: { SLACK_PACING: "true", SLACK_HISTORY_PER_MINUTE: "1", SLACK_HISTORY_MAX_WAIT_MS: "120000" },
      sweeps: 12,
      stepMs: 20_000,
    });
    const lookups = slack.callsTo("conversations.replies");
    expect(lookups).toHaveLength(2);
    expect(lookups[1]!.at - lookups[0]!.at).toBeGreaterThanOrEqual(60_000);
    expect(run.events).toContain("postponed");
    expect(slack.callsTo("chat.postMessage")).toHaveLength(2);
    expect([replies(slack, THREAD), replies(slack, other)]).toEqual([[`reply to ${THREAD}`], [`reply to ${other}`]]);
  });

  it("without the history scopes the post is sent again (at least once), told once per workspace, and not looked for again for a while", async () => {
    const warn = vi.spyOn(console, "warn");
    const threads = ["1700000000.000300", "1700000000.000310", "1700000000.000320"];
    const slack = new FakeSlack({ origin: FAKE_SLACK_ORIGIN, historyScopes: false });
    const team = `${TEAM}-noscope-${crypto.randomUUID().slice(0, 6)}`;
    const app = replying();
    const clock = controlClock();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => slack.fetch(input as Request, init));
    const stub = env.SHARD.get(env.SHARD.idFromName(`uncertain-${crypto.randomUUID()}`));
    const readsAfter: number[] = [];
    await runInDurableObject(stub, async (_, state) => {
      const shard = shardIn(state, { name: `${team}/0`, app, settings: { SLACK_PACING: "false" } });
      // One mention at a time: the first's lookup is refused; the second comes 5 minutes later, the third 11.
      for (const [i, ts] of threads.entries()) {
        slack.fail({ method: "chat.postMessage" }, { lostAnswer: "reset" }, 1);
        recordPlanned(shard.outbox, app, mentionIn(team, CHANNEL, ts, `EvNoScope${i}`));
        for (let sweep = 0; sweep < 6 && shard.outbox.countsByStatus().pending > 0; sweep++) {
          await shard.loop.sweep(Date.now());
          clock.advance(30_000);
        }
        readsAfter.push(slack.callsTo("conversations.replies").length);
        clock.advance(i === 0 ? 5 * 60_000 : 6 * 60_000);
      }
    });
    // A refused read tells the workspace lacks the scope: its next uncertain post spends no paced read
    // on a refusal; ten minutes on, it looks again (a reinstall may have granted the scopes).
    expect(readsAfter).toEqual([1, 1, 2]);
    expect(slack.callsTo("conversations.replies").map((call) => call.status)).toEqual([200, 200]);
    expect(threads.map((ts) => replies(slack, ts).length)).toEqual([2, 2, 2]);
    const told = warn.mock.calls.filter(([line]) => String(line).includes("could not be looked for"));
    expect(told).toHaveLength(1);
    expect(String(told[0]![0])).toContain(team);
  });

  it("a thread is read page by page (SLACK_HISTORY_PAGE_SIZE), up to 3 pages: posts past them are posted again, with a warning", async () => {
    /** `posts` replies in the thread, outside any step; the first attempt then fails, so its retry looks for them all. */
    const busy = async (posts: number) => {
      const slack = new FakeSlack(FAKE_SLACK_ORIGIN);
      const app = new App().event("app_mention", async ({ event, say, attempt }) => {
        for (let i = 1; i <= posts; i++) await say({ text: `reply ${i}`, thread_ts: String(event!.ts) });
        if (attempt === 1) throw new Error("the first attempt fails after its posts");
      });
      const warn = vi.spyOn(console, "warn");
      await answerMentions(app, [THREAD], { slack, settings: { SLACK_HISTORY_PAGE_SIZE: "2" } });
      const notFound = warn.mock.calls.filter(([line]) => String(line).includes("not found in the pages read"));
      warn.mockRestore();
      return { shown: replies(slack, THREAD), reads: slack.callsTo("conversations.replies"), notFound: notFound.length };
    };
    const all = Array.from({ length: 7 }, (_, i) => `reply ${i + 1}`);
    // Five posts fit three pages of two: every one is found, none posted again.
    const fits = await busy(5);
    expect(fits.reads.map((read) => [read.body.limit, read.body.cursor ?? null])).toEqual([
      ["2", null],
      ["2", "page:2"],
      ["2", "page:4"],
    ]);
    expect(fits.shown).toEqual(all.slice(0, 5));
    expect(fits.notFound).toBe(0);
    // Seven do not: the seventh is past the third page, so it is posted again (at least once), and said so.
    const past = await busy(7);
    expect(past.reads).toHaveLength(3);
    expect(past.shown).toEqual([...all, "reply 7"]);
    expect(past.notFound).toBe(1);
  });

  it("the app's own metadata is kept beside the post's id, and the post is found by it", async () => {
    const own = { event_type: "ticket_opened", event_payload: { ticket: "T-42" } };
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN).fail({ method: "chat.postMessage" }, { lostAnswer: "reset" }, 1);
    await answerMentions(replying(own), [THREAD], { slack });
    const [message, ...more] = slack.messagesIn(CHANNEL, THREAD).filter((m) => m.ts !== THREAD);
    expect(more).toEqual([]);
    expect(message!.metadata).toMatchObject({ event_type: "ticket_opened", event_payload: { ticket: "T-42" } });
  });
});

describe("where a row's posts become uncertain", () => {
  it("rows still waiting in line when their isolate died hold their attempt's own lease: a take-over marks them as a begun attempt's, and fences that attempt out", async () => {
    const clock = controlClock();
    const stub = env.SHARD.get(env.SHARD.idFromName(`uncertain-${crypto.randomUUID()}`));
    const marks = await runInDurableObject(stub, async (_, state) => {
      const { outbox } = shardIn(state, { app: replying() });
      const app = replying();
      const lease = (token: string) => ({ token, expiresAt: Date.now() + LEASE_MS });
      recordPlanned(outbox, app, mentionIn(TEAM, CHANNEL, THREAD, "EvBegan"), lease("began"));
      const [inLine] = recordPlanned(outbox, app, mentionIn(TEAM, CHANNEL, "1700000000.000500", "EvInLine"), lease("in-line"));
      const leasedAt = Date.now();
      clock.advance(LEASE_MS + 1);
      // The instance died: the one attempt had begun, the other rows were still in line (the lease cannot tell).
      const taken = outbox
        .claimBatch("taker", Date.now(), LEASE_MS, 10)
        .map((row) => [row.idempotency_key.split(":")[0], row.posts_uncertain_since ?? null]);
      // The attempt the line would have begun: neither its lease's renewal nor its completion holds.
      const key = inLine!.idempotency_key;
      const stale = {
        renewed: outbox.renewLease(key, "in-line", Date.now() + LEASE_MS),
        completed: outbox.complete(key, "in-line"),
      };
      return { leasedAt, taken, stale };
    });
    expect(marks.taken).toEqual([
      ["EvBegan", marks.leasedAt],
      ["EvInLine", marks.leasedAt],
    ]);
    expect(marks.stale).toEqual({ renewed: false, completed: false });
  });

  it("a lease taken over unsettled marks the row from when that lease was taken; a settle after a lost answer, from its attempt's start", async () => {
    const clock = controlClock();
    const stub = env.SHARD.get(env.SHARD.idFromName(`uncertain-${crypto.randomUUID()}`));
    const marks = await runInDurableObject(stub, async (_, state) => {
      const { outbox } = shardIn(state, { app: replying() });
      const app = replying();
      recordPlanned(outbox, app, mentionIn(TEAM, CHANNEL, THREAD, "EvMark0"), {
        token: "first",
        expiresAt: Date.now() + LEASE_MS,
      });
      recordPlanned(outbox, app, mentionIn(TEAM, CHANNEL, "1700000000.000400", "EvMark1"));
      const leasedAt = Date.now();
      const since = () =>
        outbox.claimedBy("taker").map((row) => [row.idempotency_key.split(":")[0], row.posts_uncertain_since ?? null]);
      clock.advance(LEASE_MS + 1);
      // The immediate attempt's lease ran out unsettled (it died); the other row was never leased.
      outbox.claimBatch("taker", Date.now(), LEASE_MS, 10);
      const afterTakeOver = since();
      // Re-claiming what it holds is not a take-over; settling keeps the earliest mark.
      outbox.claimBatch("taker", Date.now(), LEASE_MS, 10);
      const again = since();
      const key1 = outbox.claimedBy("taker").find((row) => row.idempotency_key.startsWith("EvMark1"))!.idempotency_key;
      outbox.retryLater(key1, "taker", 1, Date.now(), "chat.postMessage: timeout", Date.now() - 5);
      const settled = outbox.claimBatch("later", Date.now(), LEASE_MS, 10).find((row) => row.idempotency_key === key1);
      return { leasedAt, afterTakeOver, again, settled: settled?.posts_uncertain_since, settledAt: Date.now() - 5 };
    });
    expect(marks.afterTakeOver).toEqual([
      ["EvMark0", marks.leasedAt],
      ["EvMark1", null],
    ]);
    expect(marks.again).toEqual(marks.afterTakeOver);
    expect(marks.settled).toBe(marks.settledAt);
  });
});
