import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eventCallback, signedEvent, signedForm, slashCommandFields } from "../../src/testing/deliveries";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { outboxRows } from "../support/outboxRows";
import { HANDLER_MAX_ATTEMPTS, TEST_BINDINGS } from "../support/testBindings";

describe("a bug in a handler's own code", () => {
  it("is retried HANDLER_MAX_ATTEMPTS times in all, then parked as the handler's error with where it was thrown", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const fields = slashCommandFields("/crash", "", { team_id: team });
    expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, HANDLER_MAX_ATTEMPTS + 2, 60_000);

    const [row] = await outboxRows(shardStub(team));
    expect(row).toMatchObject({ status: "parked", attempts: HANDLER_MAX_ATTEMPTS });
    expect(row!.last_error).toMatch(
      /^attempts exhausted; last: handler "command:\/crash" threw TypeError: .+ \(at .*testApp\.ts:\d+:\d+\)/,
    );
  });
});

/** What the operations API lists for one shard's parked effects. */
async function parkedVia(team: string): Promise<Array<{ attempts: number; last_error: string }>> {
  const request = new Request(`https://coordinator.test/admin/shards/${team}/0/parked`, {
    headers: { authorization: `Bearer ${TEST_BINDINGS.ADMIN_TOKEN}` },
  });
  return (await exports.default.fetch(request)).json();
}

describe("a helper used where the delivery cannot support it", () => {
  const event = (team: string, body: Record<string, unknown>) => signedEvent(eventCallback(body, { teamId: team }), signedBy());
  const command = (team: string, name: string) => signedForm(slashCommandFields(name, "", { team_id: team }), signedBy());

  it.each([
    {
      misuse: "say() on a delivery with no channel",
      delivery: (team: string) => event(team, { type: "team_join", user: { id: "U0NEW" } }),
      path: "/slack/events",
      reason:
        'handler "event:team_join": say() needs a channel, and this team_join event has none: use client.chat.postMessage({ channel, … })',
    },
    {
      misuse: "respond() on a delivery with no response_url",
      delivery: (team: string) => event(team, { type: "app_home_opened", user: "U1", channel: "D1", tab: "home" }),
      path: "/slack/events",
      reason:
        'handler "event:app_home_opened": respond() needs a response_url, and this app_home_opened event has none (slash commands and message interactions carry one): use say() or client.chat.postMessage({ channel, … })',
    },
    {
      misuse: "a step name step() cannot store",
      delivery: (team: string) => command(team, "/badstep"),
      path: "/slack/commands",
      reason: 'handler "command:/badstep": step name "fetch user" must be 1-100 letters',
    },
    {
      misuse: "a step result JSON cannot hold",
      delivery: (team: string) => command(team, "/bigstep"),
      path: "/slack/commands",
      reason: 'handler "command:/bigstep": step "count" returned a value JSON cannot store (TypeError',
    },
  ])("$misuse is parked after 1 attempt, saying what to use instead", async ({ delivery, path, reason }) => {
    const clock = controlClock();
    const team = newWorkspace();
    expect((await deliver(await delivery(team), path)).status).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, HANDLER_MAX_ATTEMPTS + 2, 60_000);

    const [row] = await outboxRows(shardStub(team));
    expect(row).toMatchObject({ status: "parked", attempts: 1 });
    expect(row!.last_error!.slice(0, reason.length)).toBe(reason);
    expect(await parkedVia(team)).toMatchObject([{ attempts: 1, last_error: row!.last_error }]);
  });
});
