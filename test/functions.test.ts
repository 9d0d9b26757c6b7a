import { runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Inbound } from "../src/inbound/types";
import { sealedDelivery } from "../src/shard/functionTokenSealing";
import { SlackSimulator } from "../src/testing/slackSimulator";
import { controlClock, sweepUntilQuiet } from "./support/clock";
import { newWorkspace, shardStub } from "./support/coordinator";
import { outboxRows } from "./support/outboxRows";
import { TEST_SIGNING_SECRET } from "./support/secrets";
import { HANDLER_MAX_ATTEMPTS } from "./support/testBindings";
import { useFakeSlack } from "./support/useFakeSlack";

const slack = useFakeSlack();

/** The token the simulator's function_executed carries, and the header a call made with it sends. */
const FUNCTION_TOKEN = "xwfp-0000-fake";

const simulatorFor = (team: string) => new SlackSimulator({ signingSecret: TEST_SIGNING_SECRET, teamId: team });

async function send(request: Promise<Request>): Promise<number> {
  return (await exports.default.fetch(await request)).status;
}

/** Every row of every table the workspace's shard stores, as one text. */
function storedText(team: string): Promise<string> {
  return runInDurableObject(shardStub(team), (_, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'")
      .toArray();
    return JSON.stringify(tables.map(({ name }) => [name, state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray()]));
  });
}

/** A step's message clicked: `block_actions` with the step's `function_data` and only an interactivity pointer. */
function stepInteraction(team: string, executionId: string, token: string) {
  return {
    trigger_id: undefined,
    interactivity: { interactivity_pointer: `${executionId}.pointer`, interactor: { id: "U0000USER", secret: "s" } },
    function_data: { execution_id: executionId, function: { callback_id: "approval" }, inputs: { user_id: "U1" } },
    bot_access_token: token,
    team: { id: team, domain: "test" },
  };
}

describe("a custom step (app.function)", () => {
  it("completes with its outputs, calling Slack with the function's token, once though its run is retried after completing", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const request = simulatorFor(team).functionExecuted("greet", { user_id: "U1" }, { function_execution_id: "Fx0001" });
    expect(await send(request)).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, 4, 60_000);

    const completions = slack().callsTo("functions.completeSuccess");
    expect(completions.map((call) => call.body)).toEqual([
      { function_execution_id: "Fx0001", outputs: { greeting: "hello U1" } },
    ]);
    // Every Web API call of the run carries the function's token, not the workspace's.
    expect(slack().calls.map((call) => [call.method, call.token])).toEqual([
      ["chat.postMessage", `Bearer ${FUNCTION_TOKEN}`],
      ["functions.completeSuccess", `Bearer ${FUNCTION_TOKEN}`],
    ]);
    // The run's first attempt threw after completing; its retry delivered the row.
    expect(await outboxRows(shardStub(team))).toEqual([]);
  });

  it("fail({ error }) sends functions.completeError with the error", async () => {
    const team = newWorkspace();
    const request = simulatorFor(team).functionExecuted("refuse", {}, { function_execution_id: "Fx0002" });
    expect(await send(request)).toBe(200);
    const failed = await slack().waitFor("functions.completeError");
    expect(failed).toMatchObject({
      token: `Bearer ${FUNCTION_TOKEN}`,
      body: { function_execution_id: "Fx0002", error: "not today" },
    });
    expect(slack().callsTo("functions.completeSuccess")).toEqual([]);
  });

  it("an execution Slack no longer runs counts as completed: nothing is parked", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    slack().failNext("functions.completeError", { error: "execution_not_in_running_state" });
    expect(await send(simulatorFor(team).functionExecuted("refuse"))).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, 2, 60_000);
    expect(slack().callsTo("functions.completeError")).toHaveLength(1);
    expect(await outboxRows(shardStub(team))).toEqual([]);
  });

  it("a run that keeps failing until it is parked sends functions.completeError once, with a generic error: the reason stays with the parked row", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const request = simulatorFor(team).functionExecuted("broken", {}, { function_execution_id: "Fx0005" });
    expect(await send(request)).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, HANDLER_MAX_ATTEMPTS + 4, 60_000);

    const failed = slack().callsTo("functions.completeError");
    expect(failed).toHaveLength(1);
    // The workflow's users see neither the exception nor where it was thrown.
    expect(failed[0]).toMatchObject({
      token: `Bearer ${FUNCTION_TOKEN}`,
      body: { function_execution_id: "Fx0005", error: "The step failed. The app's operators can see why." },
    });
    const rows = await outboxRows(shardStub(team));
    expect(rows.map((row) => row.status)).toEqual(["parked"]);
    expect(rows[0]!.last_error).toMatch(/^attempts exhausted; last: handler "function:broken" threw Error: the step is broken/);
  });

  it("stores its token only sealed", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    expect(await send(simulatorFor(team).functionExecuted("broken"))).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, HANDLER_MAX_ATTEMPTS + 2, 60_000);

    const [row] = await outboxRows(shardStub(team));
    expect(row).toMatchObject({ status: "parked" });
    const stored = await storedText(team);
    expect(stored).toContain("function_executed");
    expect(stored).toMatch(/"functionToken\\":\\"v1\.[0-9a-f]{8}\./);
    expect(stored).not.toContain(FUNCTION_TOKEN);
  });

  it("without TOKEN_ENCRYPTION_KEY its token is not kept at all (the run then uses the workspace's)", async () => {
    const inbound: Inbound = {
      kind: "event",
      dedupeKey: "Ev0001",
      workspace: "T1",
      isEnterpriseInstall: false,
      type: "function_executed",
      payload: { event: { type: "function_executed", function_execution_id: "Fx1", bot_access_token: FUNCTION_TOKEN } },
    };
    const kept = await sealedDelivery(inbound, {});
    expect(JSON.stringify(kept)).not.toContain(FUNCTION_TOKEN);
    expect(kept.functionToken).toBeUndefined();
  });
});

describe("interactivity from a custom step's message or modal", () => {
  it("a block_actions with function_data and only an interactivity pointer completes that execution with its token, once", async () => {
    const team = newWorkspace();
    const interaction = stepInteraction(team, "Fx0003", "xwfp-from-the-click");
    const click = () => simulatorFor(team).blockActions("step_approve", "yes", interaction);
    expect(await send(click())).toBe(200);
    expect(await slack().waitFor("functions.completeSuccess")).toMatchObject({
      token: "Bearer xwfp-from-the-click",
      body: { function_execution_id: "Fx0003", outputs: { approved: "yes" } },
    });
    // The pointer is the click's dedupe key: Slack's retry of it is a duplicate.
    expect(await send(click())).toBe(200);
    expect(slack().callsTo("functions.completeSuccess")).toHaveLength(1);
  });

  it("a view_submission of the step's modal completes that execution", async () => {
    const team = newWorkspace();
    const submission = simulatorFor(team).viewSubmission(
      "step_form",
      { b1: { a1: "forty-two" } },
      {
        function_data: { execution_id: "Fx0004", function: { callback_id: "form" }, inputs: {} },
        bot_access_token: "xwfp-from-the-modal",
      },
    );
    expect(await send(submission)).toBe(200);
    expect(await slack().waitFor("functions.completeSuccess")).toMatchObject({
      token: "Bearer xwfp-from-the-modal",
      body: { function_execution_id: "Fx0004", outputs: { answer: "forty-two" } },
    });
  });
});
