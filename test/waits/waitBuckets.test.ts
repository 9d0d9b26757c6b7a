import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { waitBlockId } from "../../src/app/waits";
import { shardName } from "../../src/rpc/shardFor";
import { blockActions } from "../../src/testing/deliveries";
import { waitUntilSettled } from "../../src/testing/shardSettled";
import { signedInteraction } from "../../src/testing/signedDeliveries";
import { deliver, newWorkspace, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

useFakeSlack();

/** A signed click on a button whose block names the wait `durable_wait:{bucket}:w1`, as anyone in the channel could forge. */
async function clickNaming(team: string, bucket: number) {
  const payload = blockActions({ teamId: team, actionId: "count_confirm", channel: "C1" });
  const actions = [{ type: "button", action_id: "count_confirm", block_id: waitBlockId(bucket, "w1"), value: "yes" }];
  return deliver(await signedInteraction({ ...payload, actions }, signedBy()), "/slack/interactivity");
}

const created = async (shard: string) => {
  const id = env.SHARD.idFromName(shard).toString();
  return (await listDurableObjectIds(env.SHARD)).some((each) => each.toString() === id);
};

describe("a wait's click is routed only to a bucket the workspace's layouts have", () => {
  it("a forged click naming bucket 999999 is acked, logged, and creates no shard", async () => {
    const warnings = vi.spyOn(console, "warn");
    const team = newWorkspace();
    const response = await clickNaming(team, 999_999);
    expect(response.status).toBe(200);
    expect(await created(shardName(team, 999_999))).toBe(false);
    expect(JSON.stringify(warnings.mock.calls)).toContain("a wait's click names a bucket outside its workspace's layouts");
  });

  it("a click naming a bucket of the layout goes to that shard", async () => {
    const team = newWorkspace();
    // SHARD_BUCKETS in the tests' settings is at least 1: bucket 0 is every workspace's.
    expect((await clickNaming(team, 0)).status).toBe(200);
    expect(await created(shardName(team, 0))).toBe(true);
    // It answers the click (that wait has ended) before the test ends.
    await waitUntilSettled({ shard: env.SHARD, workspace: team });
  });
});
