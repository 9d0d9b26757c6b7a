import { describe, expect, it, vi } from "vitest";
import { FakeSlack } from "../../src/testing/fakeSlack";
import { FAKE_SLACK_ORIGIN } from "../support/testBindings";
import { answerMentions, replies, replying, runKeyOf, TEAM } from "../support/uncertainRun";

/**
 * A row never waits past SLACK_HISTORY_MAX_WAIT_MS (30 s) for the lookup of its uncertain post
 * (issue 40, point 3): a lookup whose turn — in the pace, or after a 429 — comes later is given
 * up, and the post is sent again at once (the documented at-least-once fallback), with a warning
 * naming the key and shard. Here the earlier posts were refused 500 before Slack applied them, so
 * posting again shows each reply once.
 */

const THREADS = ["1700000000.000700", "1700000000.000710"];
const GIVEN_UP = "could not be made within SLACK_HISTORY_MAX_WAIT_MS";

/** The give-up warnings logged while `run` ran, parsed. */
async function givenUpWhile<T>(run: () => Promise<T>): Promise<{ result: T; warnings: Array<Record<string, unknown>> }> {
  const warn = vi.spyOn(console, "warn");
  const result = await run();
  const warnings = warn.mock.calls
    .map(([line]) => String(line))
    .filter((line) => line.includes(GIVEN_UP))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  warn.mockRestore();
  return { result, warnings };
}

describe("a lookup that cannot be made within the bound is given up, and the post sent again", () => {
  it("a distributed app's second lookup, a minute away, is not waited for: both replies out within seconds, once each", async () => {
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN).fail({ method: "chat.postMessage" }, { status: 500 }, 2);
    const { result: run, warnings } = await givenUpWhile(() =>
      answerMentions(replying(), THREADS, {
        slack,
        settings: { SLACK_PACING: "true", SLACK_APP_DISTRIBUTION: "distributed" },
        sweeps: 90,
        stepMs: 1_000,
      }),
    );
    // One thread's lookup had the minute's read; the other's turn was 60 s away, past the 30 s bound.
    expect(slack.callsTo("conversations.replies")).toHaveLength(1);
    expect(THREADS.map((ts) => replies(slack, ts))).toEqual(THREADS.map((ts) => [`reply to ${ts}`]));
    const posts = slack.callsTo("chat.postMessage");
    expect(Math.max(...posts.map((call) => call.at)) - run.recordedAt).toBeLessThan(15_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ shard: run.shard, workspace: TEAM });
    expect(THREADS.map((_, i) => runKeyOf(`EvUncertain${i}`))).toContain(warnings[0]!.key);
    expect(await run.rows()).toEqual([]);
  });

  it("reads that fail through an outage longer than the bound are no wait for a turn: once Slack is back, a short 429 is waited for and the post found, not sent twice", async () => {
    // The post was applied and its answer lost; then Slack answers 503 to the reads for a while, then one 429 of 20 s.
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN)
      .fail({ method: "chat.postMessage" }, { lostAnswer: "serverError" }, 1)
      .fail({ method: "conversations.replies" }, { status: 503 }, 4)
      .fail({ method: "conversations.replies" }, { status: 429, retryAfter: 20 }, 1);
    const [thread] = THREADS;
    const { result: run, warnings } = await givenUpWhile(() =>
      answerMentions(replying(), [thread!], { slack, sweeps: 240, stepMs: 1_000 }),
    );
    const statuses = slack.callsTo("conversations.replies").map((call) => call.status);
    expect(statuses.slice(0, 5)).toEqual([503, 503, 503, 503, 429]);
    // The first try and the 429 are more than the bound apart: counted from the first try, the lookup would have been given up.
    const reads = slack.callsTo("conversations.replies");
    expect(reads[4]!.at - reads[0]!.at).toBeGreaterThan(30_000);
    expect(warnings).toEqual([]);
    expect(replies(slack, thread!)).toEqual([`reply to ${thread}`]);
    expect(slack.callsTo("chat.postMessage")).toHaveLength(1);
    expect(await run.rows()).toEqual([]);
  });

  it("a lookup answered 429 with a Retry-After past the bound is not waited for: the reply goes out at once, once", async () => {
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN)
      .fail({ method: "chat.postMessage" }, { status: 500 }, 1)
      .fail({ method: "conversations.replies" }, { status: 429, retryAfter: 120 }, 1);
    const [thread] = THREADS;
    const { result: run, warnings } = await givenUpWhile(() =>
      answerMentions(replying(), [thread!], { slack, sweeps: 90, stepMs: 1_000 }),
    );
    expect(slack.callsTo("conversations.replies").map((call) => call.status)).toEqual([429]);
    const posts = slack.callsTo("chat.postMessage");
    expect(posts.map((call) => call.applied)).toEqual([false, true]);
    expect(replies(slack, thread!)).toEqual([`reply to ${thread}`]);
    expect(posts[1]!.at - run.recordedAt).toBeLessThan(15_000);
    expect(warnings).toEqual([expect.objectContaining({ key: runKeyOf("EvUncertain0"), shard: run.shard })]);
  });
});
