import { describe, expect, it } from "vitest";
import { ImmediateAttempts } from "../../src/delivery/immediateAttempts";
import type { Lease } from "../../src/recording/outbox";
import { claimedRow } from "../support/claimedRow";

const row = claimedRow;

/** Attempts that end when the test says so, recorded in the order they started. */
function attempts(limits = { maxInFlight: 2, maxWaiting: 3, minLeaseLeftMs: 40 }) {
  let now = 0;
  const started: string[] = [];
  const renewed: string[] = [];
  /** Tokens whose rows the sweep has taken meanwhile: their renewal holds nothing. */
  const taken = new Set<string>();
  const finish = new Map<string, () => void>();
  const immediate = new ImmediateAttempts(
    (token) => {
      started.push(token);
      return new Promise<void>((resolve) => finish.set(token, resolve));
    },
    (lease, rows) => {
      renewed.push(lease.token);
      if (lease.token.startsWith("broken")) throw new Error("storage failed");
      return { expiresAt: now + 100, rows: taken.has(lease.token) ? [] : [...rows] };
    },
    limits,
    () => now,
  );
  const offer = (token: string, expiresAt = 100, rows = 1, urgent = false) =>
    immediate.offer(
      { token, expiresAt } satisfies Lease,
      Array.from({ length: rows }, (_, i) => row(`${token}:${i}`)),
      urgent,
    );
  /** Ends an attempt and lets its `finally` run. */
  const end = async (token: string) => {
    finish.get(token)?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { immediate, started, renewed, taken, offer, end, setNow: (at: number) => (now = at) };
}

describe("immediate attempts", () => {
  it("start at once up to the limit; the rest wait, leased, and start in order as attempts end", async () => {
    const { immediate, started, offer, end } = attempts();
    for (const token of ["a", "b", "c", "d"]) offer(token);
    expect(started).toEqual(["a", "b"]);
    expect(immediate.counts()).toEqual({ inFlight: 2, waiting: 2 });
    await end("b");
    expect(started).toEqual(["a", "b", "c"]);
    await end("a");
    expect(started).toEqual(["a", "b", "c", "d"]);
    expect(immediate.counts()).toEqual({ inFlight: 2, waiting: 0 });
  });

  it("renew the lease of a row that waited until it would run out before its attempt renews it", async () => {
    const { started, renewed, offer, end, setNow } = attempts();
    offer("a");
    offer("b");
    offer("short", 100);
    offer("long", 200);
    setNow(61); // "short" has 39 ms of lease left, under the 40 its attempt needs; "long" has 139
    await end("a");
    await end("b");
    expect(renewed).toEqual(["short"]);
    expect(started).toEqual(["a", "b", "short", "long"]);
  });

  it("start a row that waited under the lease it was written with: nothing renewed or handed over while that lease is long enough", async () => {
    const { immediate, started, renewed, offer, end } = attempts();
    for (const token of ["a", "b", "c"]) offer(token);
    offer("urgent", 100, 1, true); // a relayed command's backend awaited by the ack: started at once, as leased
    expect(started).toEqual(["a", "b", "urgent"]);
    await end("a");
    await end("b");
    expect(started).toEqual(["a", "b", "urgent", "c"]);
    expect(renewed).toEqual([]);
    expect(immediate.counts().waiting).toBe(0);
  });

  it("leave to the sweep a waiting row it has taken meanwhile (the renewal holds nothing)", async () => {
    const { started, renewed, taken, offer, end, setNow } = attempts();
    offer("a");
    offer("b");
    offer("expired", 100);
    offer("next", 300);
    taken.add("expired");
    setNow(150);
    await end("a");
    expect(renewed).toEqual(["expired"]);
    expect(started).toEqual(["a", "b", "next"]);
  });

  it("go on down the line when a renewal fails (those rows stay leased, for the sweep)", async () => {
    const { immediate, started, renewed, offer, end, setNow } = attempts();
    offer("a");
    offer("b");
    offer("broken", 100);
    offer("next", 300);
    setNow(70);
    await end("a");
    expect(renewed).toEqual(["broken"]);
    expect(started).toEqual(["a", "b", "next"]);
    expect(immediate.counts()).toEqual({ inFlight: 2, waiting: 0 });
  });

  it("start a row someone waits on at once, past the limit and the line", () => {
    const { started, offer } = attempts();
    offer("a");
    offer("b");
    offer("c");
    offer("urgent", 100, 1, true);
    expect(started).toEqual(["a", "b", "urgent"]);
  });

  it("take more rows while the line has room, counting rows, not ingests", () => {
    const { immediate, offer } = attempts();
    offer("a", 100, 2);
    expect(immediate.takesMore()).toBe(true);
    offer("b", 100, 2);
    expect(immediate.takesMore()).toBe(true);
    offer("c", 100, 3);
    expect(immediate.counts()).toEqual({ inFlight: 2, waiting: 5 });
    expect(immediate.takesMore()).toBe(false);
  });
  it("let rows in line go as the work of the invocation whose attempt ended, until its subrequests are spent; then the next invocation's", async () => {
    const by = new Map<string, string>();
    const finish = new Map<string, () => void>();
    let stalls = 0;
    const meter = (name: string) => ({ name, spent: false });
    const immediate = new ImmediateAttempts<{ name: string; spent: boolean }>(
      (token, _, invocation) => {
        by.set(token, invocation!.name);
        return new Promise<void>((resolve) => finish.set(token, resolve));
      },
      (_, rows) => ({ expiresAt: 1_000, rows: [...rows] }),
      { maxInFlight: 1, maxWaiting: 10, minLeaseLeftMs: 0 },
      () => 0,
      () => stalls++,
    );
    const first = meter("first");
    const offer = (token: string, invocation: { name: string; spent: boolean }) =>
      immediate.offer({ token, expiresAt: 1_000 }, [row(token)], false, invocation);
    offer("a", first);
    offer("b", meter("second"));
    offer("c", meter("third"));
    const end = async (token: string) => {
      finish.get(token)!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    };
    // Started by a's end: the runtime may count it as a's invocation's work, so it counts on that meter.
    await end("a");
    expect(by.get("b")).toBe("first");
    // That invocation's subrequests spent: c waits, and the shard is told (its alarm brings a meter of its own).
    first.spent = true;
    await end("b");
    expect(by.has("c")).toBe(false);
    expect(stalls).toBe(1);
    immediate.resume(meter("alarm"));
    expect(by.get("c")).toBe("alarm");
  });
});
