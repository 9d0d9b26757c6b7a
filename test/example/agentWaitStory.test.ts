import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { CONFIRM_TIMEOUT_MS } from "../../src/example/agent";
import { appMention, eventCallback, messageTs, signedEvent, signedInteraction } from "../../src/testing/deliveries";
import { clickPayload } from "../../src/testing/questionClicks";
import { controlClock } from "../support/clock";
import { adminGet, deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 42 point 1's last clause through the demo's Worker: GET /admin/api/events/{id} of a run
// waiting for a click names the wait and its question; once clicked, the run waits no more.

const slack = useFakeSlack();

type Effect = { status: string; waiting: Record<string, unknown> | null; messages: Array<Record<string, unknown>> };

describe("the demo's durable wait in its event's story", () => {
  it("shows the question's ts, its deadline and who may answer while it waits; after the click it is gone", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const threadTs = messageTs();
    const event = appMention({ text: "<@U0000BOT> count to 1000", threadTs });
    const envelope = eventCallback(event, { teamId: team });
    expect((await deliver(await signedEvent(envelope, signedBy()))).status).toBe(200);
    const question = await slack().question({ thread_ts: threadTs });
    // The demo's runs are keyed by their message (`dedupe: "fact"`): its story is the list's `fact:` id.
    const listed = await adminGet(`/admin/api/events?workspace=${team}`);
    const [{ id }] = ((await listed.json()) as { events: [{ id: string }] }).events;
    const effect = async () => {
      const story = await adminGet(`/admin/api/events/${encodeURIComponent(id)}?workspace=${team}`);
      return ((await story.json()) as { effects: Effect[] }).effects[0]!;
    };
    const asking = { kind: "question", name: "count_confirm", channel: event.channel, ts: question.ts };
    // The question is posted, then the attempt suspends the run: the story shows the wait once it has.
    await vi.waitFor(async () => expect((await effect()).waiting).not.toBeNull(), { timeout: 5_000 });
    expect(await effect()).toMatchObject({
      status: "pending",
      waiting: {
        kind: "action",
        name: "count_confirm",
        deadline: clock.now() + CONFIRM_TIMEOUT_MS,
        channel: event.channel,
        ts: question.ts,
        from: [event.user],
        since: clock.now(),
      },
      messages: [asking],
    });

    const click = clickPayload(question, "no", team, { user: String(event.user) });
    expect((await deliver(await signedInteraction(click, signedBy()), "/slack/interactivity")).status).toBe(200);
    await runDurableObjectAlarm(shardStub(team));
    await slack().waitFor("chat.stopStream");
    await vi.waitFor(async () => expect((await effect()).status).toBe("done"), { timeout: 5_000 });
    // Done, its row kept with its checkpoints: it names the question and the reply it streamed after the click.
    const done = await effect();
    expect(done).toMatchObject({
      waiting: null,
      messages: [asking, expect.objectContaining({ kind: "stream", state: "stopped" })],
    });
  });
});
