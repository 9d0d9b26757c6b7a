import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ERROR_HANDLER } from "../../src/app/listeners/errorHandler";
import type { Inbound } from "../../src/inbound/types";
import { relayBody } from "../../src/relay/relayHeaders";
import { sealedDelivery } from "../../src/shard/functionTokenSealing";
import { SlackSimulator } from "../../src/testing/slackSimulator";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { FUNCTION_TOKEN, parkedStepWithAppError, storedText } from "../support/functionTokenAtRest";
import { outboxRows } from "../support/outboxRows";
import { TEST_SIGNING_SECRET } from "../support/secrets";
import { HANDLER_MAX_ATTEMPTS, TEST_TOKEN_ENCRYPTION_KEY } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

const simulatorFor = (team: string) => new SlackSimulator({ signingSecret: TEST_SIGNING_SECRET, teamId: team });

async function send(request: Promise<Request>): Promise<number> {
  return (await exports.default.fetch(await request)).status;
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

  it("keeps no plain token in any table while its run is pending, once delivered, and from a step's click", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    // greet's first attempt completes, then throws: its row waits for a retry.
    expect(await send(simulatorFor(team).functionExecuted("greet", { user_id: "U1" }))).toBe(200);
    await slack().waitFor("functions.completeSuccess");
    expect(await outboxRows(shardStub(team))).toHaveLength(1);
    const pending = await storedText(team);
    expect(pending).toContain("function_executed");
    expect(pending).not.toContain(FUNCTION_TOKEN);

    await sweepUntilQuiet(shardStub(team), clock, 4, 60_000);
    expect(await outboxRows(shardStub(team))).toEqual([]);
    expect(await storedText(team)).not.toContain(FUNCTION_TOKEN);

    const click = simulatorFor(team).blockActions("step_approve", "yes", stepInteraction(team, "Fx0006", "xwfp-from-the-click"));
    expect(await send(click)).toBe(200);
    await slack().waitFor("functions.completeSuccess", (call) => call.body.function_execution_id === "Fx0006");
    expect(await storedText(team)).not.toContain("xwfp-from-the-click");
  });

  it("keeps no plain token in any table once its run is parked and app.error has run on it", async () => {
    const { snapshots, keys, errors } = await parkedStepWithAppError(newWorkspace());
    expect([...keys].some((key) => key.endsWith(`:parked:${ERROR_HANDLER}`))).toBe(true);
    expect(errors).toBe(2);
    for (const stored of snapshots) expect(stored).not.toContain(FUNCTION_TOKEN);
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

  it("relay mode: the request is kept sealed whole, and without TOKEN_ENCRYPTION_KEY with the token cut out, every other byte as Slack sent it", async () => {
    const body = `{"token":"v","event": {"type":"function_executed","function_execution_id":"Fx1","bot_access_token":"${FUNCTION_TOKEN}"} }`;
    const inbound: Inbound = {
      kind: "event",
      dedupeKey: "Ev0002",
      workspace: "T1",
      isEnterpriseInstall: false,
      type: "function_executed",
      payload: JSON.parse(body),
      raw: { body, contentType: "application/json" },
    };
    const sealed = await sealedDelivery(inbound, { TOKEN_ENCRYPTION_KEY: TEST_TOKEN_ENCRYPTION_KEY });
    expect(JSON.stringify(sealed)).not.toContain(FUNCTION_TOKEN);
    expect(sealed.raw).toMatchObject({ sealed: true, contentType: "application/json" });
    expect(new TextDecoder().decode(await relayBody(sealed.raw!, { TOKEN_ENCRYPTION_KEY: TEST_TOKEN_ENCRYPTION_KEY }))).toBe(
      body,
    );

    const unkeyed = await sealedDelivery(inbound, {});
    expect(JSON.stringify(unkeyed)).not.toContain(FUNCTION_TOKEN);
    expect(unkeyed.raw).toEqual({ body: body.replace(FUNCTION_TOKEN, ""), contentType: "application/json" });
    // A token Slack did not write as is (escaped here) is not searched for: the body is written anew without it.
    const escaped = body.replace("xwfp", "\\u0078wfp");
    const rewritten = await sealedDelivery({ ...inbound, raw: { body: escaped, contentType: "application/json" } }, {});
    expect(rewritten.raw!.body).not.toContain("wfp-0000");
    expect(JSON.parse(rewritten.raw!.body)).toEqual({
      token: "v",
      event: { type: "function_executed", function_execution_id: "Fx1" },
    });
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
