import { describe, expect, it } from "vitest";
import { ImmediateAttempts } from "../../src/delivery/immediateAttempts";
import { OldestFirst } from "../../src/delivery/oldestFirst";
import { InvocationMeter } from "../../src/platform/invocationMeter";
import { claimedRow } from "../support/claimedRow";

const row = claimedRow;

/** A line of 2 attempts and 1 place, rows left behind due in the outbox in order, claims of 2 rows. */
function shard(behind: string[], { maxInFlight = 2, batchSize = 2 } = {}) {
  const started: string[][] = [];
  const finish = new Map<string, () => void>();
  const immediate = new ImmediateAttempts(
    (_token, rows) => {
      started.push(rows.map((r) => r.idempotency_key));
      return new Promise<void>((resolve) => finish.set(rows[0]!.idempotency_key, resolve));
    },
    (lease, rows) => ({ expiresAt: lease.expiresAt, rows: [...rows] }),
    { maxInFlight, maxWaiting: 1, minLeaseLeftMs: 0 },
  );
  const due = [...behind];
  const claims: { token: string; keys: string[] }[] = [];
  const outbox = {
    claimBatch: (token: string, _now: number, _leaseMs: number, limit: number) => {
      const keys = due.splice(0, limit);
      claims.push({ token, keys });
      return keys.map(row);
    },
  };
  const oldestFirst = new OldestFirst(outbox, immediate, { leaseMs: 60_000, batchSize }, () => {});
  const offer = (key: string) => immediate.offer({ token: `t-${key}`, expiresAt: Date.now() + 60_000 }, [row(key)]);
  const end = async (key: string) => {
    finish.get(key)?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { immediate, oldestFirst, started, claims, offer, end };
}

describe("past the line's capacity, the oldest rows go first", () => {
  it("later rows are left behind too; once the line is empty the oldest start, a batch a claim, until a claim comes back short", async () => {
    const { immediate, oldestFirst, started, claims, offer, end } = shard(["g", "h", "i"]);
    const meter = new InvocationMeter(100);
    for (const key of ["a", "b", "c"]) offer(key);
    // Two attempts and one place in line taken: the next row is left to the sweep, and so is every later one.
    expect(oldestFirst.leavesBehind(false)).toBe(true);
    await end("a");
    expect(immediate.counts()).toEqual({ inFlight: 2, waiting: 0 });
    expect(immediate.takesMore()).toBe(true);
    expect(oldestFirst.leavesBehind(false)).toBe(true);
    // No attempt free: no claim.
    oldestFirst.catchUp(Date.now(), meter);
    expect(claims).toEqual([]);
    await end("b");
    await end("c");
    // Two free: the two oldest start at once, under their claim's token.
    oldestFirst.catchUp(Date.now(), meter);
    expect(claims.map((claim) => claim.keys)).toEqual([["g", "h"]]);
    // Each its own attempt, as an ingest's rows are.
    expect(started.slice(-2)).toEqual([["g"], ["h"]]);
    expect(oldestFirst.leavesBehind(false)).toBe(true);
    await end("g");
    await end("h");
    // The last one: the claim comes back short, caught up — new rows take the line again.
    oldestFirst.catchUp(Date.now(), meter);
    expect(claims.map((claim) => claim.keys)).toEqual([["g", "h"], ["i"]]);
    expect(oldestFirst.leavesBehind(false)).toBe(false);
  });

  it("a claim waits for a third of a batch of free attempts, and asks for as many as are free", async () => {
    const { oldestFirst, claims, offer, end } = shard(["x", "y", "z"], { maxInFlight: 3, batchSize: 6 });
    for (const key of ["a", "b", "c", "d"]) offer(key);
    expect(oldestFirst.leavesBehind(false)).toBe(true);
    await end("a");
    // The one in line started: three in flight, none free.
    await end("b");
    oldestFirst.catchUp(Date.now(), new InvocationMeter(100));
    expect(claims).toEqual([]);
    await end("c");
    // Two free of six a batch: a claim of two, the two oldest; then none free.
    oldestFirst.catchUp(Date.now(), new InvocationMeter(100));
    expect(claims.map((claim) => claim.keys)).toEqual([["x", "y"]]);
    expect(oldestFirst.leavesBehind(false)).toBe(true);
  });

  it("a spent or lean invocation claims nothing; a row left to the sweep for either leaves later ones behind", async () => {
    const { oldestFirst, claims } = shard(["x"]);
    expect(oldestFirst.leavesBehind(true)).toBe(true);
    const spent = new InvocationMeter(1);
    spent.take();
    oldestFirst.catchUp(Date.now(), spent);
    oldestFirst.catchUp(Date.now(), new InvocationMeter(100, true));
    expect(claims).toEqual([]);
    oldestFirst.catchUp(Date.now(), new InvocationMeter(100));
    expect(claims.map((claim) => claim.keys)).toEqual([["x"]]);
    expect(oldestFirst.leavesBehind(false)).toBe(false);
  });
});
