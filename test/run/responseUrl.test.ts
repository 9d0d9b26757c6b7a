import { describe, expect, it } from "vitest";
import { signedForm, slashCommandFields } from "../../src/testing/deliveries";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { outboxRows, seedEffects } from "../support/outboxRows";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

describe("response_url", () => {
  it("pointing outside RESPONSE_URL_ORIGINS (here: the coordinator's own admin API) is parked with the reason, never fetched", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const url = "http://127.0.0.1:8787/admin/shards/T1/0/replay";
    const fields = slashCommandFields("/echo", "hi", { team_id: team, response_url: url });
    expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, 1);

    const [row] = await outboxRows(shardStub(team));
    expect(row).toMatchObject({
      status: "parked",
      attempts: 1,
      last_error: "response_url origin not in RESPONSE_URL_ORIGINS: http://127.0.0.1:8787", // the origin only: the URL is a credential
    });
    expect(slack().calls).toHaveLength(0);
  });

  it("one rule for both paths: a response_url effect and a run's respond() both stop after 30 minutes", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    slack().fail({ method: "response_url" }, { status: 500 }, 2);
    // A response_url effect planned by an app…
    await seedEffects(shardStub(team), team, [
      { name: "answer", effect: { type: "response_url", url: slack().responseUrl("a"), body: { text: "a" } } },
    ]);
    // …and a run that calls respond().
    const fields = slashCommandFields("/echo", "b", { team_id: team, response_url: slack().responseUrl("b") });
    expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, 1, 1);
    expect(slack().callsTo("response_url")).toHaveLength(2); // both failed once

    clock.advance(31 * 60_000);
    await sweepUntilQuiet(shardStub(team), clock, 2);
    const rows = await outboxRows(shardStub(team));
    expect(rows.map((row) => [row.status, row.last_error])).toEqual([
      ["parked", "response_url expired (valid 30 minutes)"],
      ["parked", "response_url expired (valid 30 minutes)"],
    ]);
    expect(slack().callsTo("response_url")).toHaveLength(2);
  });

  it("is used at most 5 times: the 6th attempt is parked without a call", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    slack().fail({ method: "response_url" }, { status: 500 }, 10);
    await seedEffects(shardStub(team), team, [
      { name: "answer", effect: { type: "response_url", url: slack().responseUrl("c"), body: { text: "c" } } },
    ]);
    await sweepUntilQuiet(shardStub(team), clock, 8, 120_000);
    const [row] = await outboxRows(shardStub(team));
    expect(row).toMatchObject({ status: "parked", attempts: 6, last_error: "response_url used up (5 uses)" });
    expect(slack().callsTo("response_url")).toHaveLength(5);
  });

  it("a run's earlier attempts that never posted do not use up its response_url", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const fields = slashCommandFields("/later", "finally", { team_id: team, response_url: slack().responseUrl("later") });
    expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, 8, 60_000); // 5 failed attempts, then the answer (within 30 minutes)
    expect(
      slack()
        .callsTo("response_url")
        .map((call) => call.body),
    ).toEqual([{ text: "finally" }]);
    expect(await outboxRows(shardStub(team))).toEqual([]);
  });
});
