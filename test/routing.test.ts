import { describe, expect, it } from "vitest";
import { parseEventsApi } from "../src/inbound/parseEventsApi";
import { fnv1a32, shardFor } from "../src/routing/shardFor";
import { appMention, eventCallback } from "./support/slackSimulator";

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
