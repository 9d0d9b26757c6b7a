import { describe, expect, it } from "vitest";
import { parseEventsApi } from "../../src/inbound/parseEventsApi";
import { fmix32, fnv1a32 } from "../../src/platform/hashing";
import { shardFor } from "../../src/rpc/shardFor";
import { appMention, eventCallback } from "../support/slackSimulator";

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
