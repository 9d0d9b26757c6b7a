import { describe, expect, it } from "vitest";
import { waitBlockId, waitClickOf } from "../../src/app/waits";
import { questionBlocks } from "../../src/app/waits/questionBlocks";
import { parseSlackRequest } from "../../src/inbound/parseSlackRequest";
import { FakeSlack, SlackSimulator } from "../../src/testing";

// Issue 46, point 6: the kit clicks a durable wait's question by its button, copying what Slack
// copies — the block_id that names the wait, the message's ts, channel and thread.

const simulate = new SlackSimulator({ signingSecret: "s3cret", teamId: "T0KIT" });

/** A question as a run posts it: the wait's blocks (the block_id naming wait w-1 on bucket 0), in a thread. */
async function postedQuestion(slack: FakeSlack) {
  const blocks = questionBlocks(
    "confirm",
    {
      text: "Shall I?",
      timeoutMs: 60_000,
      buttons: [
        { text: "Yes", value: "yes", style: "primary" },
        { text: "No", value: "no" },
      ],
    },
    waitBlockId(0, "w-1"),
  );
  await slack.fetch(`${slack.apiUrl}chat.postMessage`, {
    method: "POST",
    headers: { authorization: "Bearer xoxb-1", "content-type": "application/json" },
    body: JSON.stringify({ channel: "C1", thread_ts: "1700000000.000100", text: "Shall I?", blocks }),
  });
}

async function clicked(request: Promise<Request>) {
  const raw = await (await request).text();
  const parsed = parseSlackRequest(raw, { contentType: "application/x-www-form-urlencoded", retryNum: null, retryReason: null });
  if (parsed.kind !== "inbound") throw new Error(`not an inbound: ${parsed.kind}`);
  return { inbound: parsed.inbound, payload: JSON.parse(new URLSearchParams(raw).get("payload")!) };
}

describe("FakeSlack.question and SlackSimulator.click", () => {
  it("find the newest message with buttons and click one by its value, as Slack sends the click", async () => {
    const slack = new FakeSlack();
    await slack.fetch(`${slack.apiUrl}chat.postMessage`, {
      method: "POST",
      body: JSON.stringify({ channel: "C1", text: "no buttons here" }),
      headers: { "content-type": "application/json" },
    });
    await postedQuestion(slack);
    const question = await slack.question({ channel: "C1", thread_ts: "1700000000.000100" });
    expect(question).toMatchObject({ channel: "C1", thread_ts: "1700000000.000100", text: "Shall I?" });
    const { inbound, payload } = await clicked(simulate.click(question, "no"));
    expect(payload).toMatchObject({
      type: "block_actions",
      user: { id: "U0000USER", team_id: "T0KIT" },
      container: { type: "message", message_ts: question.ts, channel_id: "C1", thread_ts: "1700000000.000100" },
      message: { ts: question.ts, thread_ts: "1700000000.000100", text: "Shall I?" },
      actions: [{ type: "button", action_id: "confirm", block_id: "durable_wait:0:w-1", value: "no" }],
    });
    // The coordinator reads it as a click on wait w-1, by the user, on that message.
    expect(waitClickOf(inbound)).toMatchObject({
      bucket: 0,
      waitId: "w-1",
      actionId: "confirm",
      value: "no",
      user: "U0000USER",
      channel: "C1",
      messageTs: question.ts,
      threadTs: "1700000000.000100",
    });
  });

  it("clicks by action_id, as another user; a button the question lacks is named with the ones it has", async () => {
    const slack = new FakeSlack();
    await postedQuestion(slack);
    const question = await slack.question();
    const { payload } = await clicked(simulate.click(question, { action_id: "confirm" }, { user: "U0000OTHER" }));
    expect(payload).toMatchObject({ user: { id: "U0000OTHER" }, actions: [{ action_id: "confirm", value: "yes" }] });
    expect(() => simulate.click(question, "maybe")).toThrow(/no button "maybe" .* \(its buttons: confirm=yes, confirm=no\)/);
  });

  it("waits for a question still to come, and says so when none does", async () => {
    const slack = new FakeSlack();
    const asked = slack.question({ channel: "C1" });
    await postedQuestion(slack);
    expect((await asked).text).toBe("Shall I?");
    await expect(slack.question({ channel: "C2" }, 50)).rejects.toThrow(
      /no message with buttons \{"channel":"C2"\} within 50 ms/,
    );
  });
});
