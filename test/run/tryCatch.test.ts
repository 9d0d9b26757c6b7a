import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { clickOn } from "../support/questionClicks";
import { workspaceShardIn } from "../support/shardIn";
import { settled, suspendedOn } from "../support/suspended";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/**
 * Slack's sample listeners (bolt-js-starter-agent) wrap their whole body in
 * `try { … } catch (e) { logger.error(…); await say(":warning: Something went wrong! (…)") }`.
 * What ends an attempt — a wait, a sleep, a Slack failure the outbox retries, a misuse — must pass
 * that catch by: the user sees exactly the answer, never the sample's warning.
 */
const caught: string[] = [];
const app = new App()
  .message("delete", async ({ say, waitForAction, logger }) => {
    try {
      const answer = await waitForAction("confirm", {
        text: "Delete these 40 tickets?",
        buttons: [
          { text: "Yes", value: "yes", action_id: "delete_confirm" },
          { text: "No", value: "no", action_id: "delete_confirm" },
        ],
        timeoutMs: 600_000,
      });
      await say(answer.timedOut ? "No answer: nothing deleted." : `You said ${answer.value}.`);
    } catch (e) {
      caught.push(String(e));
      logger.error(`Failed to handle message: ${e}`);
      await say(`:warning: Something went wrong! (${e})`);
    }
  })
  .message("remind me", async ({ say, sleep }) => {
    try {
      await sleep("a-minute", 60_000);
      await say("Reminder: stretch.");
    } catch (e) {
      caught.push(String(e));
      await say(`:warning: Something went wrong! (${e})`);
    }
  })
  .message("hello", async ({ say, client, event }) => {
    try {
      await client.chat.postMessage({ channel: String(event?.channel), text: "Hello!" });
    } catch (e) {
      caught.push(String(e));
      await say(`:warning: Something went wrong! (${e})`);
    }
  })
  .message("misuse", async ({ say, ack }) => {
    try {
      await ack({ text: "too late" } as never);
      await say("acked");
    } catch (e) {
      caught.push(String(e));
      await say(`:warning: Something went wrong! (${e})`);
    }
  })
  .message("export", async ({ say, step }) => {
    try {
      // 3 MB of JSON: no row can hold it (Cloudflare refuses rows past 2 MB).
      const rows = await step("export", async () => "x".repeat(3_000_000));
      await say(`Exported ${rows.length} characters.`);
    } catch (e) {
      caught.push(String(e));
      await say(`:warning: Something went wrong! (${e})`);
    }
  })
  .message("missing", async ({ say, client }) => {
    try {
      await client.chat.postMessage({ channel: "C0GONE", text: "into the void" });
    } catch (e) {
      // Slack's refusal no retry changes stays the code's own to answer.
      caught.push(String(e));
      await say("That channel is gone.");
    }
  });

function message(team: string, text: string) {
  return eventDelivery(team, channelMessage({ text, ts: messageTs() }));
}

const said = () =>
  slack()
    .callsTo("chat.postMessage")
    .map((call) => call.body.text);

describe("a run's code inside Slack's sample try/catch", () => {
  it("waitForAction: the question, then the answer to the click; the catch never runs", async () => {
    controlClock();
    caught.length = 0;
    const team = newWorkspace();
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, message(team, "delete the old tickets"));
      expect(said()).toEqual(["Delete these 40 tickets?"]);
      expect(state.storage.sql.exec("SELECT state FROM waits").one().state).toBe("open");
      await shard.recording.ingest(await clickOn(slack(), team, "yes"));
      await shard.delivery.sweep(Date.now());
      expect(said()).toEqual(["Delete these 40 tickets?", "You said yes."]);
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM outbox WHERE done_at IS NULL").one().n).toBe(0);
    });
    expect(caught).toEqual([]);
  });

  it("sleep: the attempt ends quietly and the reminder comes once its time has come", async () => {
    const clock = controlClock();
    caught.length = 0;
    const team = newWorkspace();
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, message(team, "remind me to stretch"));
      expect(said()).toEqual([]);
      clock.advance(60_000);
      await shard.delivery.sweep(Date.now());
      expect(said()).toEqual(["Reminder: stretch."]);
    });
    expect(caught).toEqual([]);
  });

  it("a 500 from Slack: retried by the outbox, the catch never runs, the message is posted once", async () => {
    const clock = controlClock();
    caught.length = 0;
    const team = newWorkspace();
    slack().fail({ method: "chat.postMessage" }, { status: 500 });
    const hello = message(team, "hello there");
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      const first = settled(shard);
      await shard.recording.ingest(hello);
      expect(await first).toBe("retried");
      clock.advance(60_000);
      await shard.delivery.sweep(Date.now());
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM outbox WHERE done_at IS NULL").one().n).toBe(0);
    });
    const shown = slack()
      .messagesIn(hello.conversation!.channel)
      .map((m) => m.text);
    expect(shown).toEqual(["Hello!"]);
    expect(caught).toEqual([]);
  });

  /** The run's `text` parks at its first attempt with `reason`: the user sees nothing, its catch never runs. */
  async function parkedPastTheCatch(text: string, reason: RegExp) {
    controlClock();
    caught.length = 0;
    const team = newWorkspace();
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      const first = settled(shard);
      await shard.recording.ingest(message(team, text));
      expect(await first).toBe("parked");
      const [row] = shard.operations.listParked();
      expect(row?.last_error).toMatch(reason);
    });
    expect(said()).toEqual([]);
    expect(caught).toEqual([]);
  }

  it("a misuse (ack with a body in run): parked with its reason, not swallowed into a :warning:", async () => {
    await parkedPastTheCatch("misuse please", /ack\(body\) in run comes too late/);
  });

  it("a step too large for a row: parked with its reason, not swallowed, the run never goes on without it", async () => {
    await parkedPastTheCatch("export everything", /step "export" returned .* bytes of JSON/);
  });

  it("a refusal no retry changes (channel_not_found) stays the code's own to catch", async () => {
    controlClock();
    caught.length = 0;
    const team = newWorkspace();
    slack().fail({ method: "chat.postMessage" }, { error: "channel_not_found" });
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      const first = settled(shard);
      await shard.recording.ingest(message(team, "missing channel"));
      expect(await first).toBe("delivered");
    });
    expect(caught).toEqual([expect.stringMatching(/channel_not_found/)]);
    expect(said()).toEqual(["into the void", "That channel is gone."]);
  });
});
