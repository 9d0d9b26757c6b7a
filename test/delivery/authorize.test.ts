import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { deliverClaimed } from "../../src/delivery/deliverClaimed";
import { MissingBotToken } from "../../src/platform/errors";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { outboxRows, postMessage, seedEffects } from "../support/outboxRows";
import { courierOf } from "../support/shardIn";
import { LEASE_MS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

describe("credentials per workspace (authorize)", () => {
  it("each effect is performed with the token authorize gives for its row's workspace; response_url needs none", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    await seedEffects(stub, team, [
      { name: "post", effect: postMessage("C1") },
      { name: "respond", effect: { type: "response_url", url: slack().responseUrl("r1"), body: { text: "hi" } } },
    ]);
    const asked = await runInDurableObject(stub, async (_, state) => {
      const refs: string[] = [];
      const authorize = ({ workspace }: { workspace: string }) => {
        refs.push(workspace);
        return { botToken: `xoxb-for-${workspace}` };
      };
      const { courier } = courierOf(state, {}, { authorize });
      await deliverClaimed(courier, "t1", courier.outbox.claimBatch("t1", Date.now(), LEASE_MS, 10));
      return refs;
    });
    expect(asked).toEqual([team]); // only the Web API call asked for credentials
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((call) => call.token),
    ).toEqual([`Bearer xoxb-for-${team}`]);
    expect(
      slack()
        .callsTo("response_url")
        .map((call) => call.token),
    ).toEqual([null]);
  });

  it("no credentials yet (MissingBotToken) is retried with backoff, not parked", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    await seedEffects(stub, team, [{ name: "post", effect: postMessage("C1") }]);
    await runInDurableObject(stub, async (_, state) => {
      const authorize = () => {
        throw new MissingBotToken("no installation yet");
      };
      const { courier } = courierOf(state, {}, { authorize });
      await deliverClaimed(courier, "t1", courier.outbox.claimBatch("t1", Date.now(), LEASE_MS, 10));
    });
    expect(await outboxRows(stub)).toEqual([
      expect.objectContaining({ status: "pending", attempts: 1, last_error: "no installation yet" }),
    ]);
    expect(slack().calls).toHaveLength(0);
  });
});
