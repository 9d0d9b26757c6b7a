import { describe, expect, it } from "vitest";
import type { PartWorld, ShardPart } from "../../src/parts/part";
import { partSettings } from "../../src/parts/shardParts";
import { InvalidSetting } from "../../src/platform/errors";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { deliverySettings } from "../../src/settings";

// A part reads its settings from the world it is built from, parsed (`npm run typecheck` checks this file).
class Reminders implements ShardPart {
  readonly keptMs: number;
  readonly callTimeoutMs: number | undefined;

  constructor(world: PartWorld) {
    this.keptMs = world.settings.record.receiptRetentionMs;
    // Null while a delivery setting is invalid: delivery is paused, and the part must say what it does then.
    this.callTimeoutMs = world.settings.delivery?.delivery.timeoutMs;
  }
}

/** What does not compile (never called). */
function misread(world: PartWorld): unknown[] {
  return [
    // @ts-expect-error — the delivery side's settings may be null (paused): read without a check, it does not compile.
    world.settings.delivery.delivery.timeoutMs,
    // @ts-expect-error — no raw env: a part reads parsed settings, never `env.SOME_VAR`.
    world.env,
  ];
}

const envOf = (vars: Record<string, string>) => vars as unknown as CoordinatorEnv;
const world = (settings: PartWorld["settings"]) => ({ settings }) as PartWorld;

describe("a part's settings", () => {
  it("are the parsed settings: the ingest side's read as asked, the delivery side's as the loop parsed them", () => {
    const env = envOf({ RECEIPT_RETENTION_HOURS: "2", DELIVERY_TIMEOUT_MS: "4000", LEASE_MS: "30000" });
    const part = new Reminders(world(partSettings(env, deliverySettings(env))));
    expect(part.keptMs).toBe(2 * 3_600_000);
    expect(part.callTimeoutMs).toBe(4000);
    // Delivery paused by an invalid setting: the part still has its ingest side's.
    expect(new Reminders(world(partSettings(env, null))).callTimeoutMs).toBeUndefined();
  });

  it("a bad ingest-side setting throws only when a part reads it: a role that records nothing (the watch) is unaffected", () => {
    const settings = partSettings(envOf({ RECEIPT_RETENTION_HOURS: "soon" }), null);
    expect(settings.delivery).toBeNull();
    expect(() => settings.record).toThrow(InvalidSetting);
    expect(typeof misread).toBe("function");
  });
});
