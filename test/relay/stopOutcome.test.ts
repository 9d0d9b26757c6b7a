import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { STATUS_OF } from "../../src/recording/rowStatus";
import { channelMessage, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { agentSessionStopped } from "../support/assistantPayloads";
import { deliver, newWorkspace, shardStub, signedBy, watchStub } from "../support/coordinator";
import { useFakeSlackAndBackend } from "../support/fakeBackend";
import { latch } from "../support/latch";

// A stop is an outcome, not a failure (issue 46): the operator is not paged for a user's stop
// button. Alerts are on in this project (ALERT_WEBHOOK_URL), and the watch is this file's own.

const { slack, alerts } = useFakeSlackAndBackend();

async function send(team: string, event: Record<string, unknown>): Promise<void> {
  expect((await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()))).status).toBe(200);
}

/** Slack's answers to `method` wait for `release`: an attempt calling it is still running meanwhile. */
function answersHeld(method: string, release: Promise<void>) {
  const reached = latch();
  const answer = vi.mocked(globalThis.fetch).getMockImplementation()!;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith(`/${method}`)) {
      reached.open();
      await release;
    }
    return answer(input, init);
  });
  return reached.opened;
}

/** The lines logged at `error` (platform/log.ts and a run's `logger.error` write them through console.error) since the spy began. */
const errorLines = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map(([line]) => String(line));

/** The shard's run rows: key (without its delivery), status, reason, and whether an attempt still holds it. */
function runsOf(team: string) {
  return runInDurableObject(shardStub(team), (_, state) =>
    state.storage.sql
      .exec<{ key: string; status: string; last_error: string | null; held: number }>(
        `SELECT substr(idempotency_key, instr(idempotency_key, ':') + 1) AS key, ${STATUS_OF("outbox")} AS status, last_error,
          claim_token IS NOT NULL AS held
          FROM outbox WHERE effect = 'run' AND done_at IS NULL`,
      )
      .toArray(),
  );
}

/** Everything the shard and the watch hold is done: no row pending in either. */
async function settled(team: string): Promise<void> {
  await vi.waitFor(async () => expect((await shardStub(team).stats()).outbox.pending).toBe(0), { timeout: 5_000 });
  await runDurableObjectAlarm(watchStub());
  await vi.waitFor(async () => expect((await watchStub().stats()).outbox.pending).toBe(0), { timeout: 5_000 });
}

describe("a stop is no failure to the operator", () => {
  it("a run its user stopped mid-attempt sends the watch no alert and logs no error; a park in the same setup does alert", async () => {
    const team = newWorkspace();
    const errors = vi.spyOn(console, "error");
    // Slack's sample shape, a try/catch around two says (its listener in test/support/testApp.ts): Slack holds its answer
    // to the first until the user has pressed stop; the second is the run's first call after the stop.
    const release = latch();
    const firstSaid = answersHeld("chat.postMessage", release.opened);
    const question = channelMessage({ text: "answer carefully" });
    const channel = String(question.channel);
    await send(team, question);
    await firstSaid;
    await send(team, agentSessionStopped({ channel, threadTs: String(question.ts) }));
    release.open();
    // The run's attempt has ended and settled (it no longer holds the row, however it settled), and whatever it left to do is done.
    await vi.waitFor(async () => expect((await runsOf(team)).map((run) => run.held)).toEqual([0]), { timeout: 5_000 });
    await settled(team);
    // Time for a report the shard might still send: none comes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await runDurableObjectAlarm(watchStub());
    expect(alerts().texts).toEqual([]);
    expect((await watchStub().stats()).outbox).toMatchObject({ pending: 0, parked: 0 });
    // Nothing logged at error, by the engine or by the run's catch (which never ran: nothing said after the stop).
    expect(errorLines(errors)).toEqual([]);
    expect(
      slack()
        .messagesIn(channel)
        .map((message) => message.text),
    ).toEqual(["thinking…"]);
    // Kept as stopped, with its reason; nothing on the dead-letter list.
    expect(await runsOf(team)).toEqual([
      { key: "run:message:answer carefully", status: "stopped", last_error: "stopped by user", held: 0 },
    ]);
    expect(await shardStub(team).listParked()).toEqual([]);

    // The control: a run parked for good (team_join's say() has no channel: a misuse) alerts the watch.
    await send(team, { type: "team_join", user: { id: "U0NEW" }, event_ts: "1796000000.000100" });
    await vi.waitFor(async () => expect(await shardStub(team).listParked()).toHaveLength(1), { timeout: 5_000 });
    await vi.waitFor(
      async () => {
        await runDurableObjectAlarm(watchStub());
        expect(alerts().texts.filter((text) => text.startsWith(":parking:"))).toHaveLength(1);
      },
      { timeout: 5_000 },
    );
    expect(alerts().texts).toEqual([expect.stringMatching(new RegExp(`^:parking: 1 effect was parked on shard ${team}/0 `))]);
  });
});
