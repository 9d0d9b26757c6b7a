import { describe, expect, it } from "vitest";
import { DeliveryReports, MAX_DESTINATIONS, MAX_PENDING_RUNS } from "../../src/delivery/deliveryReports";
import { InstallationCache } from "../../src/installations/installationCache";
import { MAX_UNWRITTEN_MINUTES, MinuteMetrics } from "../../src/metrics/minuteMetrics";
import { MAX_PACED_RATE_KEYS, Pacer } from "../../src/pacing/pacer";
import { POST_MESSAGE_PER_CHANNEL as PACE } from "../../src/pacing/tiers";
import { MAX_RATE_KEYS, RetryAfterMemory } from "../../src/platform/retryAfter";
import { BackendResponses, MAX_AWAITED } from "../../src/relay/backendResponses";
import type { StatusAnswer } from "../../src/rpc/installations";
import type { DeliveryReport } from "../../src/rpc/outcomes";

// What an isolate remembers per channel, workspace or request is bounded: a Durable Object
// isolate lives long and has 128 MB. Each bound is shown at its edge: remembered within it,
// forgotten past it (oldest first).

const interval = 1000 / PACE.perSecond;
/** Lets the reports' send/flush chain run (it settles in microtasks). */
const drain = () => new Promise((resolve) => setTimeout(resolve, 0));

/** One shard's delivery reports, collected into `reports` as the watch takes them; each taken once `arrival` resolves. */
function reportsInto(reports: DeliveryReport[], arrival: () => Promise<void> = async () => {}): DeliveryReports {
  return new DeliveryReports("shard-1", async (report) => {
    reports.push(structuredClone(report));
    await arrival();
  });
}

/** A pacer whose rate key "b0" used its burst at 0, after `others` other rate keys were asked for at 0. */
function pacerAfter(others: number): Pacer {
  const pacer = new Pacer();
  for (const holder of ["r0", "r1", "r2"]) pacer.reserve("T|b0", PACE, holder, 0);
  for (let i = 1; i <= others; i++) pacer.reserve(`T|b${i}`, PACE, "x", 0);
  return pacer;
}

describe("the pacer's memory", () => {
  it("remembers a rate key's burst while fewer than MAX_PACED_RATE_KEYS others are asked for, forgets the least recent past it", () => {
    expect(pacerAfter(MAX_PACED_RATE_KEYS - 1).reserve("T|b0", PACE, "r3", 0)).toBeCloseTo(interval);
    expect(pacerAfter(MAX_PACED_RATE_KEYS).reserve("T|b0", PACE, "r3", 0)).toBe(0);
  });

  it("keeps at most MAX_PACED_RATE_KEYS given slots: past it the oldest holder asks again", () => {
    const pacer = new Pacer();
    // The first 3 go at once (the burst); every later holder is given a slot to keep.
    const slots = Array.from({ length: MAX_PACED_RATE_KEYS + 4 }, (_, i) => pacer.reserve("T|b", PACE, `h${i}`, 0));
    expect(slots[3]).toBeCloseTo(interval);
    expect(pacer.reserve("T|b", PACE, "h4", 0)).toBe(slots[4]); // still kept
    expect(pacer.reserve("T|b", PACE, "h3", 0)).toBeGreaterThan(slots.at(-1)!); // forgotten: a new slot, last
  });

  it("keeps Retry-After for at most MAX_PACED_RATE_KEYS rate keys", () => {
    const pacer = new Pacer();
    pacer.blockUntil("T|b0", 30_000, "h", 0);
    for (let i = 1; i < MAX_PACED_RATE_KEYS; i++) pacer.blockUntil(`T|b${i}`, 30_000, "h", 0);
    expect(pacer.reserve("T|b0", PACE, "other", 0)).toBe(30_000);
    const forgetful = new Pacer();
    forgetful.blockUntil("T|b0", 30_000, "h", 0);
    for (let i = 1; i <= MAX_PACED_RATE_KEYS; i++) forgetful.blockUntil(`T|b${i}`, 30_000, "h", 0);
    expect(forgetful.reserve("T|b0", PACE, "other", 0)).toBe(0);
  }, 30_000);
});

describe("the delivery's Retry-After memory", () => {
  it("remembers at most MAX_RATE_KEYS rate keys, the least recently blocked forgotten first", () => {
    const limits = new RetryAfterMemory();
    limits.remember("T|chat.postMessage:C0", 60_000, 0);
    for (let i = 1; i < MAX_RATE_KEYS; i++) limits.remember(`T|chat.postMessage:C${i}`, 60_000, 0);
    expect(limits.blockedUntil("T|chat.postMessage:C0", 0)).toBe(60_000);
    limits.remember(`T|chat.postMessage:C${MAX_RATE_KEYS}`, 60_000, 0);
    expect(limits.blockedUntil("T|chat.postMessage:C0", 0)).toBeUndefined();
    expect(limits.blockedUntil(`T|chat.postMessage:C${MAX_RATE_KEYS}`, 0)).toBe(60_000);
  });
});

describe("the installation cache's memory", () => {
  const installed = async (): Promise<StatusAnswer> => ({ status: "installed", expiresAt: null });

  it("keeps its bound of installations: the oldest is asked for again, the newer ones are not", async () => {
    const cache = new InstallationCache(2);
    const asked: string[] = [];
    const status = (id: string) =>
      cache.status(id, Date.now(), () => {
        asked.push(id);
        return installed();
      });
    for (const id of ["TA", "TB", "TC", "TA", "TC"]) await status(id);
    expect(asked).toEqual(["TA", "TB", "TC", "TA"]);
    expect(cache.counts().entries).toBe(2);
  });

  it("counts pushes for at most as many installations", () => {
    const cache = new InstallationCache(2);
    for (const id of ["TA", "TB", "TC", "TD", "TE"]) cache.apply(id, { status: "installed" }, 0);
    expect(cache.counts().generations).toBe(2);
  });
});

describe("the relay's awaited answers", () => {
  it("awaits at most MAX_AWAITED answers: past it the oldest is no longer wanted", () => {
    const answers = new BackendResponses();
    for (let i = 0; i < MAX_AWAITED; i++) answers.expect(`k${i}`, 0);
    expect(answers.wants("k0")).toBe(true);
    answers.expect(`k${MAX_AWAITED}`, 0);
    expect(answers.wants("k0")).toBe(false);
    expect(answers.wants("k1")).toBe(true);
  });

  it("forgets answers nobody collected within 30 s", () => {
    const answers = new BackendResponses();
    answers.expect("old", 0);
    answers.expect("new", 30_001);
    expect([answers.wants("old"), answers.wants("new")]).toEqual([false, true]);
  });
});

describe("the delivery reports' memory", () => {
  const ok = (destination: string) => ({ destination, label: destination, ok: true });

  it("remembers at most MAX_DESTINATIONS destinations: a forgotten one says its next success again", async () => {
    const reports: DeliveryReport[] = [];
    const shard = reportsInto(reports);
    shard.observe(ok("api:T:d0"), "k");
    shard.observe(ok("api:T:d0"), "k"); // steady state: not news
    for (let i = 1; i < MAX_DESTINATIONS; i++) shard.observe(ok(`api:T:d${i}`), "k");
    shard.observe(ok("api:T:d0"), "k"); // still remembered
    await drain();
    const saidD0 = () => reports.flatMap((r) => r.runs).filter((run) => run.destination === "api:T:d0").length;
    expect(saidD0()).toBe(1);
    shard.observe(ok(`api:T:d${MAX_DESTINATIONS}`), "k");
    shard.observe(ok("api:T:d0"), "k");
    await drain();
    expect(saidD0()).toBe(2);
  });

  it("keeps at most MAX_PENDING_RUNS runs while a report is on its way, the newest", async () => {
    const reports: DeliveryReport[] = [];
    let arrive = () => {};
    const shard = reportsInto(reports, () => new Promise<void>((done) => (arrive = done)));
    for (let i = 0; i < 2 * MAX_PENDING_RUNS + 1; i++)
      shard.observe({ ...ok("relay"), ok: i % 2 === 0, error: i % 2 === 0 ? undefined : `e${i}` }, `k${i}`);
    arrive();
    await drain();
    expect(reports).toHaveLength(2);
    expect(reports[1]!.runs).toHaveLength(MAX_PENDING_RUNS);
    expect(reports[1]!.runs.at(-1)).toMatchObject({ ok: true, n: 1 });
    expect(reports[1]!.runs.at(-2)).toMatchObject({ ok: false, key: `k${2 * MAX_PENDING_RUNS - 1}` });
  });
});

describe("the unwritten metrics minutes", () => {
  it("keeps the newest MAX_UNWRITTEN_MINUTES when the alarm has not written them", () => {
    const metrics = new MinuteMetrics();
    const minutes = MAX_UNWRITTEN_MINUTES + 10;
    for (let m = 0; m < minutes; m++) metrics.count("accepted", m * 60_000);
    const taken = metrics.take(minutes * 60_000);
    expect(taken).toHaveLength(MAX_UNWRITTEN_MINUTES);
    expect(taken[0]!.minute).toBe(10);
    expect(taken.at(-1)!.minute).toBe(minutes - 1);
  });
});
