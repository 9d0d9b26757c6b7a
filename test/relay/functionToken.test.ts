import { runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ERROR_HANDLER } from "../../src/app/listeners/errorHandler";
import { SlackSimulator } from "../../src/testing/slackSimulator";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { expectRelaySigned, useFakeSlackAndBackend } from "../support/fakeBackend";
import { FUNCTION_TOKEN, parkedStepWithAppError, storedText } from "../support/functionTokenAtRest";
import { outboxRows } from "../support/outboxRows";
import { TEST_SIGNING_SECRET } from "../support/secrets";

const { slack, backend } = useFakeSlackAndBackend();

const simulatorFor = (team: string) => new SlackSimulator({ signingSecret: TEST_SIGNING_SECRET, teamId: team });

/** Sends Slack's request to the Worker; returns the body Slack sent, as text. */
async function send(request: Promise<Request>): Promise<string> {
  const sent = await request;
  const body = await sent.clone().text();
  expect((await exports.default.fetch(sent)).status).toBe(200);
  return body;
}

/** Every request the backend got: Slack's body byte for byte, re-signed so a stock Slack verifier accepts it. */
async function expectRelayedAsSent(slackBody: string): Promise<void> {
  expect(backend().requests.length).toBeGreaterThan(0);
  for (const request of backend().requests) {
    expect([...request.body]).toEqual([...new TextEncoder().encode(slackBody)]);
    await expectRelaySigned(request);
  }
}

/** Reads the shard, then sweeps it `rounds` times; returns what every table held each time, and each row's status seen (`relay pending`, …). */
async function sweepAndRead(team: string, clock: ReturnType<typeof controlClock>, rounds: number) {
  const snapshots: string[] = [];
  const statuses = new Set<string>();
  for (let i = 0; i <= rounds; i++) {
    if (i > 0) await sweepUntilQuiet(shardStub(team), clock, 1, 10_000);
    snapshots.push(await storedText(team));
    for (const row of await outboxRows(shardStub(team)))
      statuses.add(`${row.idempotency_key.endsWith(":relay") ? "relay" : "run"} ${row.status}`);
  }
  return { snapshots, statuses };
}

/** Run rows of the team's shard whose delivery carries the request as Slack sent it. */
function runRowsCarryingRequest(team: string): Promise<number> {
  return runInDurableObject(shardStub(team), (_, state) => {
    const rows = state.storage.sql.exec<{ payload: string }>("SELECT payload FROM outbox WHERE effect = 'run'").toArray();
    expect(rows.length).toBeGreaterThan(0);
    return rows.filter(({ payload }) => (JSON.parse(payload) as { inbound: { raw?: unknown } }).inbound.raw !== undefined).length;
  });
}

describe("relay mode: a custom step's token at rest", () => {
  it("is in no table while its relay is pending and once it is parked; every attempt relays Slack's body byte for byte", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    // Failing until RELAY_RETRY_HOURS (36 s here) has passed: retried, then parked.
    backend().answerNext({ status: 500 }, 100);
    const slackBody = await send(simulatorFor(team).functionExecuted("greet", { user_id: "U1" }));
    expect(slackBody).toContain(`"bot_access_token":"${FUNCTION_TOKEN}"`);
    // The request is kept once, by the relay row: the step's run needs only the parsed delivery.
    expect(await runRowsCarryingRequest(team)).toBe(0);

    const { snapshots, statuses } = await sweepAndRead(team, clock, 8);
    expect(statuses).toContain("relay pending");
    expect(statuses).toContain("relay parked");
    expect(snapshots.join("")).toContain("function_executed");
    for (const stored of snapshots) expect(stored).not.toContain(FUNCTION_TOKEN);
    expect(backend().requests.length).toBeGreaterThan(1);
    await expectRelayedAsSent(slackBody);
    // The app's own step ran beside the relay, with the token it was sent.
    expect(slack().callsTo("functions.completeSuccess")[0]?.token).toBe(`Bearer ${FUNCTION_TOKEN}`);
  });

  it("is in no table once the relay and the step's run are delivered", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const slackBody = await send(simulatorFor(team).functionExecuted("greet", { user_id: "U1" }));
    const { snapshots } = await sweepAndRead(team, clock, 4);
    expect(await outboxRows(shardStub(team))).toEqual([]);
    for (const stored of snapshots) expect(stored).not.toContain(FUNCTION_TOKEN);
    expect(backend().requests).toHaveLength(1);
    await expectRelayedAsSent(slackBody);
  });

  it("is in no table for a click on the step's message (form-encoded), which is relayed as Slack sent it", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    // Refused once: its relay row waits for a retry.
    backend().answerNext({ status: 500 });
    const click = simulatorFor(team).blockActions("step_approve", "yes", {
      function_data: { execution_id: "Fx0007", function: { callback_id: "approval" }, inputs: {} },
      bot_access_token: "xwfp-from-the-click",
    });
    const slackBody = await send(click);
    expect(slackBody).toContain("xwfp-from-the-click");
    const { snapshots, statuses } = await sweepAndRead(team, clock, 3);
    expect(statuses).toContain("relay pending");
    expect(await outboxRows(shardStub(team))).toEqual([]);
    for (const stored of snapshots) expect(stored).not.toContain("xwfp-from-the-click");
    expect(backend().requests).toHaveLength(2);
    await expectRelayedAsSent(slackBody);
  });

  it("is in no table once the step's run is parked and app.error has run on it, beside the relay", async () => {
    const { snapshots, keys, errors } = await parkedStepWithAppError(newWorkspace());
    expect([...keys].some((key) => key.endsWith(`:parked:${ERROR_HANDLER}`))).toBe(true);
    expect([...keys].some((key) => key.endsWith(":relay"))).toBe(true);
    expect(errors).toBe(2);
    for (const stored of snapshots) expect(stored).not.toContain(FUNCTION_TOKEN);
    // The relay opened the sealed request: Slack's body, the token in it.
    expect(backend().requests[0]?.text).toContain(`"bot_access_token":"${FUNCTION_TOKEN}"`);
  });
});
