import { describe, expect, it } from "vitest";
import { waitBlockId, waitClickOf } from "../../src/app/waits";
import { parseForm } from "../../src/inbound/parseForm";
import type { Inbound } from "../../src/inbound/types";
import type { BucketLayout } from "../../src/rpc/bucketLayouts";
import { shardOf } from "../../src/rpc/shardFor";
import { blockActions } from "../../src/testing/deliveries";

/** A click on a button whose block carries `blockId`, as the edge parses it. */
function clickIn(blockId: string): Inbound {
  const payload = blockActions({ teamId: "T1", actionId: "count_confirm", channel: "C1", messageTs: "1700000000.000100" });
  const actions = [{ type: "button", action_id: "count_confirm", block_id: blockId, value: "yes" }];
  const parsed = parseForm(new URLSearchParams({ payload: JSON.stringify({ ...payload, actions }) }).toString());
  if (parsed.kind !== "inbound") throw new Error("not a delivery");
  return parsed.inbound;
}

describe("a click on a durable wait's question", () => {
  it("names its wait, its button, who clicked and where", () => {
    expect(waitClickOf(clickIn(waitBlockId(3, "AbC_d-9")))).toEqual({
      bucket: 3,
      waitId: "AbC_d-9",
      actionId: "count_confirm",
      value: "yes",
      user: "U0000USER",
      channel: "C1",
      messageTs: "1700000000.000100",
      threadTs: undefined,
    });
    // A second actions block of the same question (`:1`) names the same wait.
    expect(waitClickOf(clickIn(`${waitBlockId(0, "w1")}:1`))?.waitId).toBe("w1");
  });

  it("is no wait's click unless its block_id is a wait's, with a bucket and an id", () => {
    for (const blockId of ["b1", "durable_wait:", "durable_wait:x:w1", "durable_wait:1:", "durable_wait:1234567:w1"])
      expect(waitClickOf(clickIn(blockId))).toBeUndefined();
  });

  it("goes to the shard that holds the wait, whatever the workspace's layout routes its trigger_id to", () => {
    const byMessage: BucketLayout[] = [{ effectiveAt: 0, buckets: 16, mixed: true, routing: "message" }];
    const byConversation: BucketLayout[] = [{ effectiveAt: 0, buckets: 8, mixed: true, routing: "conversation" }];
    for (const layouts of [byMessage, byConversation, []]) {
      expect(shardOf(clickIn(waitBlockId(5, "w1")), layouts, Date.now(), 6)).toBe("T1/5");
      expect(shardOf(clickIn(waitBlockId(0, "w1")), layouts, Date.now(), 6)).toBe("T1/0");
    }
  });

  it("has no shard when no layout of the workspace has its bucket (a forged block_id)", () => {
    const shrunk: BucketLayout[] = [{ effectiveAt: Date.now() - 1, buckets: 2, mixed: true, routing: "conversation" }];
    // A wait asked under SHARD_BUCKETS=8 before the layout shrank to 2 is still answered in its shard.
    expect(shardOf(clickIn(waitBlockId(7, "w1")), shrunk, Date.now(), 8)).toBe("T1/7");
    expect(shardOf(clickIn(waitBlockId(8, "w1")), shrunk, Date.now(), 8)).toBeUndefined();
    expect(shardOf(clickIn(waitBlockId(999_999, "w1")), [], Date.now(), 1)).toBeUndefined();
  });
});
