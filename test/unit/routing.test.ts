import { describe, expect, it } from "vitest";
import { parseEventsApi } from "../../src/inbound/parseEventsApi";
import { parseForm } from "../../src/inbound/parseForm";
import type { Inbound } from "../../src/inbound/types";
import { fmix32, fnv1a32 } from "../../src/platform/hashing";
import type { BucketLayout } from "../../src/rpc/bucketLayouts";
import { shardFor, shardOf } from "../../src/rpc/shardFor";
import { appMention, blockActions, channelMessage, eventCallback } from "../../src/testing/deliveries";

describe("shard routing", () => {
  it("is a stable, pure function: the same delivery always maps to the same shard", () => {
    // Pinned values: changing the hash would strand in-flight retries on the wrong shard.
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(shardFor("T123", "Ev0ABCDEF", 1)).toBe("T123/0");
    expect(shardFor("T123", "Ev0ABCDEF", 16)).toBe(`T123/${fnv1a32("Ev0ABCDEF") % 16}`);
    for (let i = 0; i < 100; i++) expect(shardFor("T123", `Ev${i}`, 8)).toBe(shardFor("T123", `Ev${i}`, 8));
  });

  it("spreads dedupe keys across buckets", () => {
    const buckets = 8;
    const counts = new Array<number>(buckets).fill(0);
    for (let i = 0; i < 8000; i++) {
      const name = shardFor("T123", `Ev0${(i * 7919).toString(36).toUpperCase()}`, buckets);
      counts[Number(name.split("/")[1])]! += 1;
    }
    for (const count of counts) expect(count).toBeGreaterThan(800); // fair share is 1000
  });

  it("layouts set at run time spread by FNV-1a mixed: keys sharing their digits, which FNV-1a alone puts in one of 4 buckets, spread evenly", () => {
    expect(fmix32(1)).toBe(0x514e28b7); // Murmur3's finalizer, its published value
    const keys = Array.from({ length: 400 }, (_, i) => {
      const n = 1000 + i; // a channel and a message ts from one counter, as in a test or a replay
      return `T1:C${String(n).padStart(8, "0")}:1796065927.${String(n).padStart(6, "0")}`;
    });
    const spread = (mixed: boolean) => {
      const counts = [0, 0, 0, 0];
      for (const key of keys) counts[Number(shardFor("T1", key, 4, mixed).split("/")[1])]! += 1;
      return counts;
    };
    expect(spread(false)).toContain(400); // FNV-1a mod 2^k sees only the low bits of each character
    for (const count of spread(true)) expect(count).toBeGreaterThan(70); // fair share is 100
  });

  it("keeps one workspace's deliveries on that workspace's shards", () => {
    expect(shardFor("T1", "Ev1", 1)).not.toBe(shardFor("T2", "Ev1", 1));
    expect(shardFor("T1", "Ev1", 1)).toBe(shardFor("T1", "Ev2", 1));
  });

  it("routes org-wide installs by enterprise id, single-workspace installs by team id", () => {
    const orgWide = parseEventsApi(
      JSON.stringify(eventCallback(appMention(), { teamId: "T1", enterpriseId: "E9", isEnterpriseInstall: true })),
    );
    const perTeam = parseEventsApi(
      JSON.stringify(eventCallback(appMention(), { teamId: "T1", enterpriseId: "E9", isEnterpriseInstall: false })),
    );
    if (orgWide.kind !== "inbound" || perTeam.kind !== "inbound") throw new Error("expected inbound deliveries");
    expect(orgWide.inbound.workspace).toBe("E9");
    expect(perTeam.inbound.workspace).toBe("T1");
    expect(shardFor(orgWide.inbound.workspace, orgWide.inbound.dedupeKey, 1)).toBe("E9/0");
  });
});

/** The inbound the edge makes of an event in team T1. */
function eventInbound(event: Record<string, unknown>): Inbound {
  const parsed = parseEventsApi(JSON.stringify(eventCallback(event, { teamId: "T1" })));
  if (parsed.kind !== "inbound") throw new Error(`expected an inbound delivery, got ${parsed.kind}`);
  return parsed.inbound;
}

function interactionInbound(payload: Record<string, unknown>): Inbound {
  const parsed = parseForm(new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
  if (parsed.kind !== "inbound") throw new Error(`expected an inbound delivery, got ${parsed.kind}`);
  return parsed.inbound;
}

describe("a delivery's conversation", () => {
  const root = "1796000000.000100";
  const thread = { key: `T1:C1:${root}`, team: "T1", channel: "C1", threadTs: root };

  it("is the thread of a message, an assistant thread, an agent event's channel and thread, a click's message", () => {
    expect(eventInbound(appMention({ channel: "C1", ts: root })).conversation).toEqual(thread);
    expect(eventInbound(appMention({ channel: "C1", ts: "1796000001.000200", threadTs: root })).conversation).toEqual(thread);
    expect(eventInbound({ ...channelMessage({ channel: "C1", ts: "1796000001.000300" }), thread_ts: root }).conversation).toEqual(
      thread,
    );
    const edited = { type: "message", subtype: "message_changed", channel: "C1", ts: "1796000009.000000" };
    expect(eventInbound({ ...edited, message: { ts: "1796000002.000000", thread_ts: root } }).conversation).toEqual(thread);
    const assistantThread = { user_id: "U1", context: {}, channel_id: "C1", thread_ts: root };
    for (const type of ["assistant_thread_started", "assistant_thread_context_changed"]) {
      expect(eventInbound({ type, assistant_thread: assistantThread, event_ts: "1796000003.0" }).conversation).toEqual(thread);
    }
    // A user's message in an assistant thread names it itself; its assistant_thread holds only an action_token.
    const inAssistantThread = { ...channelMessage({ channel: "C1", ts: "1796000003.000500" }), thread_ts: root };
    const withToken = { ...inAssistantThread, channel_type: "im", assistant_thread: { action_token: "1.2.abc" } };
    expect(eventInbound(withToken).conversation).toEqual(thread);
    const stopped = { type: "agent_session_stopped", channel: "C1", thread_ts: root, user: "U1", streaming_message_ts: [] };
    expect(eventInbound({ ...stopped, event_ts: "1796000004.000000" }).conversation).toEqual(thread);

    const click = blockActions({ teamId: "T1", actionId: "stop", channel: "C1", messageTs: "1796000005.000000" });
    expect(interactionInbound({ ...click, message: { ts: "1796000005.000000", thread_ts: root } }).conversation).toEqual(thread);
    const onRoot = interactionInbound(blockActions({ teamId: "T1", actionId: "stop", channel: "C1", messageTs: root }));
    expect(onRoot.conversation).toEqual(thread);
    const { message: _, channel: __, ...containerOnly } = click;
    const inContainer = {
      ...containerOnly,
      container: { type: "message", channel_id: "C1", message_ts: "1796000006.0", thread_ts: root },
    };
    expect(interactionInbound(inContainer).conversation).toEqual(thread);
  });

  it("of a thread's root is its fact key; other deliveries have none", () => {
    const mention = eventInbound(appMention({ channel: "C1", ts: root }));
    expect(mention.conversation?.key).toBe(mention.factKey);
    const reaction = { type: "reaction_added", user: "U1", reaction: "eyes", item: { type: "message", channel: "C1", ts: root } };
    expect(eventInbound({ ...reaction, event_ts: root }).conversation).toBeUndefined();
    expect(eventInbound({ type: "team_join", user: { id: "U1" }, event_ts: root }).conversation).toBeUndefined();
    expect(
      interactionInbound({ type: "view_submission", team: { id: "T1" }, trigger_id: "1.2", view: { id: "V1" } }).conversation,
    ).toBeUndefined();
    expect(eventInbound({ ...appMention({ channel: "C1" }), ts: "not a time" }).conversation).toBeUndefined();
  });
});

describe("routing by layout", () => {
  const layout = (effectiveAt: number, buckets: number, routing: BucketLayout["routing"]): BucketLayout => ({
    effectiveAt,
    buckets,
    mixed: effectiveAt > 0,
    routing,
  });
  const switchAt = Date.parse("2026-11-30T12:00:00Z");
  const seconds = (ms: number) => `${ms / 1000}.000100`;
  const reply = (rootMs: number, replyMs: number) =>
    eventInbound(appMention({ channel: "C1", ts: seconds(replyMs), threadTs: seconds(rootMs) }));

  it("by message, a reply goes by its own message; by conversation, by its thread in the layout its thread began in", () => {
    const layouts = [layout(0, 1, "message"), layout(switchAt, 64, "conversation")];
    // Begun before the switch (one bucket), replied to after it: with its root in bucket 0.
    const early = reply(switchAt - 60_000, switchAt + 60_000);
    expect(shardOf(early, layouts, switchAt + 61_000, 1)).toBe("T1/0");
    // Begun after it: replies and the root in the root's bucket of 64.
    const replies = Array.from({ length: 20 }, (_, i) => reply(switchAt + 1_000, switchAt + 2_000 + i * 1_000));
    const rootShard = shardFor("T1", `T1:C1:${seconds(switchAt + 1_000)}`, 64, true);
    for (const one of replies) expect(shardOf(one, layouts, switchAt + 100_000, 1)).toBe(rootShard);
  });

  it("what was routed by message before a layout routing by conversation took effect is routed as it was", () => {
    const before = [layout(0, 16, "message")];
    const after = [...before, layout(switchAt, 16, "conversation")];
    const replies = Array.from({ length: 20 }, (_, i) => reply(switchAt - 100_000, switchAt - 50_000 + i * 1_000));
    const spread = new Set(replies.map((one) => shardOf(one, before, switchAt, 1)));
    expect(spread.size).toBeGreaterThan(1); // by their own messages, not their thread
    for (const one of replies) expect(shardOf(one, after, switchAt + 200_000, 1)).toBe(shardOf(one, before, switchAt, 1));
  });
});
