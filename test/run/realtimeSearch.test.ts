import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { SEARCH_METHOD, SearchRefused } from "../../src/app/search";
import type { Inbound } from "../../src/inbound/types";
import { channelMessage, messageTs, slashCommandFields } from "../../src/testing/deliveries";
import { FakeSlack } from "../../src/testing/fakeSlack";
import { controlClock } from "../support/clock";
import { eventDelivery, inboundOf } from "../support/inboundOf";
import { recordPlanned, shardIn } from "../support/shardIn";
import { FAKE_SLACK_ORIGIN } from "../support/testBindings";

/**
 * A run's real-time search (issue 45 point 3), through one shard's real delivery loop (leases,
 * checkpoints, retries, parking) against a fake Slack that answers assistant.search.context from
 * the messages it holds: the search passes the message's action_token, is a step (a retry reuses
 * its answer), and is refused — catchable, never retried — without a token or with an expired one.
 */

const TEAM = "T0SEARCH";
const CHANNEL = "C0ASKED";
const ACTION_TOKEN = "1234.5678.abcdef0123456789";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A person's message "find QUERY" in CHANNEL, with the action_token Slack adds (in `assistant_thread`, as a DM's) unless `token` is false. */
function personAsks(query: string, token = true): Inbound {
  const event = channelMessage({ text: `find ${query}`, ts: messageTs(), channel: CHANNEL });
  return eventDelivery(TEAM, token ? { ...event, assistant_thread: { action_token: ACTION_TOKEN } } : event);
}

/** Searches what a person asked and says the contents found; a refusal is said when `catches`, else thrown on. */
function searching(catches = true, attempts: number[] = []) {
  const finds = new App().message(/^find (.+)$/, async ({ search, say, context, attempt }) => {
    attempts.push(attempt);
    try {
      const found = await search(context.matches![1]!, { channel_types: ["public_channel", "im"], limit: 10 });
      const contents = (found.results.messages ?? []).map((m) => `${m.content} (${m.channel_id})`);
      await say(`found: ${contents.join(" | ") || "nothing"}`);
    } catch (error) {
      if (!catches || !(error instanceof SearchRefused)) throw error;
      await say(`search refused: ${error.code}`);
    }
  });
  finds.command("/find", async ({ command, search, respond }) => {
    await search(command!.text ?? "").catch((error: unknown) =>
      respond(error instanceof SearchRefused ? `search refused: ${error.code}` : "other"),
    );
  });
  return finds;
}

/** A fake Slack holding a person's matching message, another's that does not match, and a bot's that does. */
function slackHolding(): FakeSlack {
  const slack = new FakeSlack(FAKE_SLACK_ORIGIN);
  slack.postAs({ user: "U0OTHER" }, "C0PROJECTS", { text: "The Gizmo launch moved to Friday" });
  slack.postAs({ user: "U0OTHER" }, "C0PROJECTS", { text: "lunch is at noon" });
  slack.postAs({ bot_id: "B0OTHER", app_id: "A0OTHER", user: "U0OTHERBOT" }, "C0PROJECTS", { text: "gizmo build passed" });
  return slack;
}

/** Records `inbound`'s runs in a fresh shard and sweeps them until none is pending; the outbox's rows after. */
async function perform(app: App, delivery: () => Inbound, slack: FakeSlack) {
  const clock = controlClock();
  // Made on the held clock: a command's response_url lives 30 minutes from its arrival.
  const inbound = delivery();
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => slack.fetch(input as Request, init));
  const stub = env.SHARD.get(env.SHARD.idFromName(`search-${crypto.randomUUID()}`));
  return runInDurableObject(stub, async (_, state) => {
    const { outbox, loop } = shardIn(state, { name: `${TEAM}/0`, app, settings: { SLACK_PACING: "false" } });
    recordPlanned(outbox, app, inbound);
    for (let i = 0; i < 8 && outbox.countsByStatus().pending > 0; i++) {
      await loop.sweep(Date.now());
      clock.advance(30_000);
    }
    return state.storage.sql.exec("SELECT status, attempts, last_error FROM outbox WHERE done_at IS NULL").toArray();
  });
}

/** A person asks "find gizmo" and the run catches refusals: the outbox's rows after, and the attempts the run saw. */
async function askedForGizmo(slack: FakeSlack) {
  const attempts: number[] = [];
  const rows = await perform(searching(true, attempts), () => personAsks("gizmo"), slack);
  return { rows, attempts };
}

const said = (slack: FakeSlack) => slack.messagesIn(CHANNEL).map((m) => m.text);

describe("search() in a run started by a person's message", () => {
  it("passes the message's action_token to assistant.search.context and gets the fake's matching messages", async () => {
    const slack = slackHolding();
    expect(await perform(searching(), () => personAsks("gizmo"), slack)).toEqual([]);
    const [call, ...others] = slack.callsTo(SEARCH_METHOD);
    expect(others).toEqual([]);
    expect(call!.body).toEqual({
      query: "gizmo",
      action_token: ACTION_TOKEN,
      channel_types: "public_channel,im",
      limit: "10",
    });
    // The person's message only: the other does not match, the bot's is left out without include_bots.
    expect(said(slack)).toEqual(["found: The Gizmo launch moved to Friday (C0PROJECTS)"]);
  });

  it("its answer lost after Slack searched: the retry searches again (no checkpoint was written), and answers once", async () => {
    const slack = slackHolding().fail({ method: SEARCH_METHOD }, { lostAnswer: "reset" }, 1);
    expect(await askedForGizmo(slack)).toEqual({ rows: [], attempts: [1, 2] });
    // Two searches, both applied: the first answer never reached the run, so its step was never recorded.
    expect(slack.callsTo(SEARCH_METHOD).map((call) => call.applied)).toEqual([true, true]);
    expect(said(slack)).toEqual(["found: The Gizmo launch moved to Friday (C0PROJECTS)"]);
  });

  it("a later call's answer lost (the reply's post): the retry reuses the recorded search and does not search again", async () => {
    const slack = slackHolding().fail({ method: "chat.postMessage" }, { lostAnswer: "reset" }, 1);
    expect(await askedForGizmo(slack)).toEqual({ rows: [], attempts: [1, 2] });
    // One search: the retry got the step's stored answer back. The post was found in the channel, not made twice.
    expect(slack.callsTo(SEARCH_METHOD)).toHaveLength(1);
    expect(slack.callsTo("chat.postMessage").length).toBeGreaterThanOrEqual(1);
    expect(said(slack)).toEqual(["found: The Gizmo launch moved to Friday (C0PROJECTS)"]);
  });

  it('Slack\'s search having issues (assistant_search_context_disabled, "wait and try again"): the attempt ends and the retry searches', async () => {
    const slack = slackHolding().fail({ method: SEARCH_METHOD }, { error: "assistant_search_context_disabled" }, 1);
    expect(await askedForGizmo(slack)).toEqual({ rows: [], attempts: [1, 2] });
    expect(slack.callsTo(SEARCH_METHOD)).toHaveLength(2);
    expect(said(slack)).toEqual(["found: The Gizmo launch moved to Friday (C0PROJECTS)"]);
  });

  it("no action_token (a message without one, a slash command): refused with SearchRefused no_action_token, Slack never asked", async () => {
    const slack = slackHolding();
    expect(await perform(searching(), () => personAsks("gizmo", false), slack)).toEqual([]);
    const command = () =>
      inboundOf("command", "/find", slashCommandFields("/find", "gizmo", { response_url: slack.responseUrl("find") }), {
        team: TEAM,
      });
    expect(await perform(searching(), command, slack)).toEqual([]);
    expect(slack.callsTo(SEARCH_METHOD)).toEqual([]);
    expect(said(slack)).toEqual(["search refused: no_action_token"]);
    expect(slack.callsTo("response_url").map((call) => call.body.text)).toEqual(["search refused: no_action_token"]);
  });

  it("an expired action_token (invalid_action_token): the code catches SearchRefused, and nothing is retried", async () => {
    const slack = slackHolding().fail({ method: SEARCH_METHOD }, { error: "invalid_action_token" }, 1);
    expect(await perform(searching(), () => personAsks("gizmo"), slack)).toEqual([]);
    expect(slack.callsTo(SEARCH_METHOD)).toHaveLength(1);
    expect(said(slack)).toEqual(["search refused: invalid_action_token"]);
  });

  it("an expired action_token the code does not catch: the run is parked after one attempt, never searching again", async () => {
    const slack = slackHolding().fail({ method: SEARCH_METHOD }, { error: "invalid_action_token" }, 1);
    const attempts: number[] = [];
    const rows = await perform(searching(false, attempts), () => personAsks("gizmo"), slack);
    expect(attempts).toEqual([1]);
    expect(rows).toEqual([{ status: "parked", attempts: 1, last_error: expect.stringContaining("invalid_action_token") }]);
    // The fake would answer a second search: there was none. The person is told once (RUN_PARKED_TEXT), no "retrying".
    expect(slack.callsTo(SEARCH_METHOD)).toHaveLength(1);
    expect(said(slack)).toEqual(["Sorry, something went wrong and I could not finish this."]);
  });
});
