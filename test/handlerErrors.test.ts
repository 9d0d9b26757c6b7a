import { describe, expect, it } from "vitest";
import { controlClock, sweepUntilQuiet } from "./support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "./support/coordinator";
import { outboxRows } from "./support/outboxRows";
import { signedForm, slashCommandFields } from "./support/slackSimulator";
import { HANDLER_MAX_ATTEMPTS } from "./support/testBindings";

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
