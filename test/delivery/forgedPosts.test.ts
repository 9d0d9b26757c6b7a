import { describe, expect, it, vi } from "vitest";
import { POST_EVENT_TYPE, POST_ID_FIELD, postIdOf } from "../../src/slack/postIds";
import { appMention, messageTs, slackId } from "../../src/testing/deliveries";
import type { Fault } from "../../src/testing/fakeSlack";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, mentionDelivery, newWorkspace, shardStub } from "../support/coordinator";
import { outboxRows } from "../support/outboxRows";
import { useFakeSlack } from "../support/useFakeSlack";

/**
 * Issue 41, point 1: a message another app posts in the thread, carrying the id of a post whose
 * outcome the coordinator never learned, is not taken for that post. Driven through the Worker
 * (a signed mention; the test app replies "reply" in its thread) and the shard's alarm, against
 * the fake Slack, where the other app posts with `postAs`.
 */

const slack = useFakeSlack();

/** Another app in the channel: its bot, its app, its bot user. */
const OTHER_APP = { bot_id: "B0000OTHER", app_id: "A0000OTHER", user: "U0000OTHER" };
const FORGED_TEXT = "a forged answer, which must never reach a log";

/** Mentions in `channel` (one thread each) delivered to the Worker, their first posts answered `fault`. */
async function mentioned(channel: string, fault: Fault, threads = 1) {
  const team = newWorkspace();
  slack().fail({ method: "chat.postMessage" }, fault, threads);
  const mentions = [];
  for (let i = 0; i < threads; i++) {
    const { delivery, envelope } = await mentionDelivery(team, { event: appMention({ channel, ts: messageTs() }) });
    expect((await deliver(delivery)).status).toBe(200);
    mentions.push(String((envelope.event as Record<string, unknown>).ts));
  }
  await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(threads));
  return { team, mentions };
}

/** The other app posts, in `thread`, a message carrying the id that the post of the call `call` carried. */
function forge(channel: string, thread: string, call: number): void {
  const id = postIdOf(slack().callsTo("chat.postMessage")[call]!.body);
  expect(id).toBeDefined();
  const metadata = { event_type: POST_EVENT_TYPE, event_payload: { [POST_ID_FIELD]: id } };
  slack().postAs(OTHER_APP, channel, { thread_ts: thread, text: FORGED_TEXT, metadata });
}

/** The texts this app's bot shows in `thread`. */
const ours = (channel: string, thread: string) =>
  slack()
    .messagesIn(channel, thread)
    .filter((m) => m.bot_id === "B0000FAKE")
    .map((m) => m.text);

const forgeryWarnings = (warn: { mock: { calls: unknown[][] } }) =>
  warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("not this app's bot"));

describe("a message found in Slack counts only when this app's bot posted it", () => {
  it("another app's message carrying the post's id is ignored, told once per channel without its text; each reply is posted once", async () => {
    const clock = controlClock();
    const warn = vi.spyOn(console, "warn");
    const channel = slackId("C");
    // Two mentions in one channel; each first post answered 500 (Slack did not post it, the coordinator cannot know).
    const { team, mentions } = await mentioned(channel, { status: 500 }, 2);
    for (const [i, thread] of mentions.entries()) forge(channel, thread, i);

    await sweepUntilQuiet(shardStub(team), clock);

    // Each thread was looked up, and its reply posted: once, by this app's bot, beside the forgery.
    expect(slack().callsTo("conversations.replies")).toHaveLength(2);
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((call) => call.outcome === "ok"),
    ).toEqual([false, false, true, true]);
    for (const thread of mentions) {
      expect(ours(channel, thread)).toEqual(["reply"]);
      expect(
        slack()
          .messagesIn(channel, thread)
          .map((m) => m.text),
      ).toContain(FORGED_TEXT);
    }
    expect(await outboxRows(shardStub(team))).toEqual([]);
    // Told once for the channel, naming who posted it, never what it says.
    const told = forgeryWarnings(warn);
    expect(told).toHaveLength(1);
    expect(JSON.parse(told[0]!)).toMatchObject({ level: "warn", channel, ...OTHER_APP });
    expect(told[0]).not.toContain(FORGED_TEXT);
  });

  it("this app's own earlier post is still found beside a forgery, and not posted again", async () => {
    const clock = controlClock();
    const info = vi.spyOn(console, "log");
    const channel = slackId("C");
    // Slack posted the reply and its answer was lost; then the other app posts the same id.
    const { team, mentions } = await mentioned(channel, { lostAnswer: "reset" });
    const [thread] = mentions as [string];
    forge(channel, thread, 0);
    const [genuine] = slack()
      .messagesIn(channel, thread)
      .filter((m) => m.bot_id === "B0000FAKE");

    await sweepUntilQuiet(shardStub(team), clock);

    expect(slack().callsTo("conversations.replies")).toHaveLength(1);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
    expect(ours(channel, thread)).toEqual(["reply"]);
    // The post found is the app's own message, not the forgery.
    const found = info.mock.calls
      .map(([line]) => String(line))
      .filter((line) => line.includes("found in Slack: not posted again"));
    expect(found.map((line) => JSON.parse(line).ts)).toEqual([genuine!.ts]);
    expect(await outboxRows(shardStub(team))).toEqual([]);
  });
});
