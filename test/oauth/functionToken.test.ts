import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ERROR_HANDLER } from "../../src/app/listeners/errorHandler";
import { SlackSimulator } from "../../src/testing/slackSimulator";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { shardStub } from "../support/coordinator";
import { FUNCTION_TOKEN, parkedStepWithAppError, storedText } from "../support/functionTokenAtRest";
import { install, newTeam } from "../support/oauth";
import { outboxRows } from "../support/outboxRows";
import { TEST_SIGNING_SECRET } from "../support/secrets";
import { HANDLER_MAX_ATTEMPTS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

describe("OAuth mode: a custom step's token at rest", () => {
  it("is in no table of an installed workspace's shard, while its run is pending, parked or delivered", async () => {
    const clock = controlClock();
    const team = newTeam();
    await install(slack(), { id: team });
    const simulator = new SlackSimulator({ signingSecret: TEST_SIGNING_SECRET, teamId: team });
    expect((await exports.default.fetch(await simulator.functionExecuted("greet", { user_id: "U1" }))).status).toBe(200);
    expect((await exports.default.fetch(await simulator.functionExecuted("broken"))).status).toBe(200);
    await slack().waitFor("functions.completeSuccess");
    const snapshots = [await storedText(team)];
    await sweepUntilQuiet(shardStub(team), clock, HANDLER_MAX_ATTEMPTS + 4, 60_000);
    snapshots.push(await storedText(team));
    expect((await outboxRows(shardStub(team))).map((row) => row.status)).toEqual(["parked"]);
    expect(slack().callsTo("functions.completeError")[0]?.token).toBe(`Bearer ${FUNCTION_TOKEN}`);
    for (const stored of snapshots) expect(stored).not.toContain(FUNCTION_TOKEN);
  });

  it("is in no table once the step's run is parked and app.error has run on it", async () => {
    const { snapshots, keys, errors } = await parkedStepWithAppError(newTeam());
    expect([...keys].some((key) => key.endsWith(`:parked:${ERROR_HANDLER}`))).toBe(true);
    expect(errors).toBe(2);
    for (const stored of snapshots) expect(stored).not.toContain(FUNCTION_TOKEN);
  });
});
