import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import type { WaitQuestion } from "../../src/app/waits";
import type { Inbound } from "../../src/inbound/types";
import type { WorkspaceShard } from "../../src/shard/workspaceShard";
import { channelMessage } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { clickOn, ephemeralsOf, postedTexts } from "../support/questionClicks";
import { workspaceShardIn } from "../support/shardIn";
import { settled, suspendedOn } from "../support/suspended";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 41, point 2: who may answer a durable wait. Another member's click on a question meant for
// the asker used to answer it (the run went on as they said); now it is refused, the clicker told
// whose question it is, and the wait stays open for its answerers.

const slack = useFakeSlack();
const ASKER = "U0000USER"; // channelMessage's user: the one whose message starts the run
const STRANGER = "U0000STRANGER";

/** Each word asks with its own `from`; the run says who answered. */
const asked: Record<string, Pick<WaitQuestion, "from">> = {
  delete: {},
  deploy: { from: ["U0000LEAD", "U0000OPS"] },
  lunch: { from: "anyone" },
};
const runs: string[] = [];
const app = new App()
  .message(/^(delete|deploy|lunch)$/, async ({ message, say, waitForAction }) => {
    const word = String((message as { text?: string }).text);
    runs.push(word);
    const answer = await waitForAction("confirm", {
      text: `${word}?`,
      buttons: [{ text: "Yes", value: "yes" }],
      timeoutMs: 600_000,
      ...asked[word],
    });
    await say(answer.timedOut ? "No answer." : `${word}: yes, said <@${answer.user}>.`);
  })
  .message("archive", {
    // Another app's message: no user wrote it, so the run has no asker.
    includeBots: true,
    run: async ({ waitForAction }) => {
      await waitForAction("confirm", { text: "archive?", buttons: [{ text: "Yes", value: "yes" }], timeoutMs: 600_000 });
    },
  });

/** Ingests `click`, then runs whatever is due: the ephemeral it may have earned, the run it may have woken. */
async function ingestClick(shard: WorkspaceShard, click: Inbound): Promise<void> {
  expect((await shard.recording.ingest(click)).verdict).toBe("accepted");
  await shard.delivery.sweep(Date.now());
}

const said = () => postedTexts(slack());
const ephemerals = () => ephemeralsOf(slack());
const clickBy = (team: string, user: string) => clickOn(slack(), team, "yes", user);
const waitRow = (state: DurableObjectState) =>
  state.storage.sql.exec<{ state: string; answerers: string | null }>("SELECT state, answerers FROM waits").one();

describe("waitForAction's `from`: who may answer", () => {
  it("the asker by default: a stranger's click is refused (told whose question it is, the run not resumed), the asker's answers", async () => {
    controlClock();
    runs.length = 0;
    const team = newWorkspace();
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, eventDelivery(team, channelMessage({ text: "delete" })));
      expect(waitRow(state)).toEqual({ state: "open", answerers: JSON.stringify([ASKER]) });

      await ingestClick(shard, await clickBy(team, STRANGER));
      expect(ephemerals()).toEqual([{ user: STRANGER, text: `This question is for <@${ASKER}>.` }]);
      expect(waitRow(state).state).toBe("open");
      expect(said()).toEqual(["delete?"]);
      expect(runs).toEqual(["delete"]);

      await ingestClick(shard, await clickBy(team, ASKER));
      expect(waitRow(state).state).toBe("closed");
    });
    expect(said()).toEqual(["delete?", `delete: yes, said <@${ASKER}>.`]);
    expect(runs).toEqual(["delete", "delete"]);
    expect(ephemerals()).toHaveLength(1);
  });

  it("a list of user ids: the asker is refused like anyone not on it; one of the list answers", async () => {
    controlClock();
    const team = newWorkspace();
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, eventDelivery(team, channelMessage({ text: "deploy" })));
      await ingestClick(shard, await clickBy(team, ASKER));
      await ingestClick(shard, await clickBy(team, STRANGER));
      expect(waitRow(state).state).toBe("open");
      await ingestClick(shard, await clickBy(team, "U0000OPS"));
    });
    const refused = "This question is for <@U0000LEAD> or <@U0000OPS>.";
    expect(ephemerals()).toEqual([
      { user: ASKER, text: refused },
      { user: STRANGER, text: refused },
    ]);
    expect(said()).toEqual(["deploy?", "deploy: yes, said <@U0000OPS>."]);
  });

  it('"anyone": the first click of whoever sees the question answers it', async () => {
    controlClock();
    const team = newWorkspace();
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, eventDelivery(team, channelMessage({ text: "lunch" })));
      expect(waitRow(state)).toEqual({ state: "open", answerers: null });
      await ingestClick(shard, await clickBy(team, STRANGER));
    });
    expect(said()).toEqual(["lunch?", `lunch: yes, said <@${STRANGER}>.`]);
    expect(ephemerals()).toEqual([]);
  });

  it('a run with no asker (a message no user wrote) and the default "asker": refused as misuse, parked, nothing asked', async () => {
    controlClock();
    const team = newWorkspace();
    const parked = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      const { user: _user, ...byApp } = channelMessage({ text: "archive", botId: "B0OTHER" });
      const first = settled(shard);
      await shard.recording.ingest(eventDelivery(team, byApp));
      expect(await first).toBe("parked");
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM waits").one().n).toBe(0);
      return shard.operations.listParked();
    });
    expect(parked.map((row) => row.last_error)).toEqual([expect.stringContaining("names no user to ask")]);
    expect(said()).toEqual([]);
  });
});
