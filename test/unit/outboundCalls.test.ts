import { describe, expect, it } from "vitest";
import { CallDeadlines } from "../../src/platform/callDeadlines";
import { ConnectionSlots, OPEN_CONNECTIONS_MAX } from "../../src/platform/connectionSlots";
import { InvocationMeters, NoSubrequestsLeft, SubrequestsSpent } from "../../src/platform/invocationMeter";
import { AttemptOutbound, CallTimedOut, OutboundCalls } from "../../src/platform/outboundCalls";
import { latch } from "../support/latch";

// The deadline timer is set an hour apart, so only the test's own ticks count time here.
const HOUR = 3_600_000;
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

function door(budget = 100) {
  const deadlines = new CallDeadlines(HOUR);
  const outbound = new OutboundCalls(new InvocationMeters(budget, "T1/0"), new ConnectionSlots(), deadlines);
  return { outbound, deadlines };
}

describe("a shard's door for outbound calls", () => {
  it("at most OPEN_CONNECTIONS_MAX calls are out at once; the others leave in the order they were made", async () => {
    const { outbound } = door();
    const answers = Array.from({ length: 9 }, () => latch());
    const left: number[] = [];
    let out = 0;
    let most = 0;
    const calls = answers.map((answer, n) =>
      outbound.call(HOUR, async () => {
        left.push(n);
        most = Math.max(most, ++out);
        await answer.opened;
        out--;
      }),
    );
    await turn();
    expect(left).toEqual([0, 1, 2, 3, 4, 5]);
    answers[3]!.open();
    answers[0]!.open();
    await turn();
    expect(left).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const answer of answers) answer.open();
    await Promise.all(calls);
    expect({ most, left: left.length }).toEqual({ most: OPEN_CONNECTIONS_MAX, left: 9 });
  });

  it("a call's timeout runs from when it leaves, not while it waits for a slot", async () => {
    const { outbound, deadlines } = door();
    const held = Array.from({ length: OPEN_CONNECTIONS_MAX }, () => latch());
    for (const answer of held) void outbound.call(HOUR, () => answer.opened);
    let signal: AbortSignal | undefined;
    const seventh = latch();
    const queued = outbound.call(HOUR, (given) => {
      signal = given;
      return seventh.opened;
    });
    // Far past the seventh call's timeout while it waits: nothing of it has started yet.
    for (let tick = 0; tick < 5; tick++) deadlines.tick();
    expect(signal).toBeUndefined();
    held[0]!.open();
    await turn();
    expect(signal?.aborted).toBe(false);
    seventh.open();
    await expect(queued).resolves.toBeUndefined();
  });

  it("a call whose deadline passes is thrown as CallTimedOut and gives its slot back", async () => {
    const { outbound, deadlines } = door();
    const hung = outbound.call(
      HOUR,
      (signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
    );
    await turn();
    for (let tick = 0; tick < 3; tick++) deadlines.tick();
    await expect(hung).rejects.toBeInstanceOf(CallTimedOut);
    expect(outbound.slots.inUse).toBe(0);
  });

  it("a call past the budget is refused unsent and takes no slot; the attempt it cut short says so", async () => {
    const { outbound } = door(2);
    const attempt = new AttemptOutbound(outbound);
    let sent = 0;
    const send = async () => {
      sent++;
    };
    await attempt.rpc(send);
    await attempt.call(HOUR, send);
    await expect(attempt.call(HOUR, send)).rejects.toBeInstanceOf(SubrequestsSpent);
    expect({ sent, inUse: outbound.slots.inUse }).toEqual({ sent: 2, inUse: 0 });
    expect(attempt.refusal()).toBeInstanceOf(SubrequestsSpent);
  });

  it("an attempt none of whose calls could go was not begun: it waits, uncounted, and cuts nothing short", async () => {
    const { outbound } = door(1);
    await outbound.call(HOUR, async () => {});
    let cut = false;
    const attempt = new AttemptOutbound(outbound, () => {
      cut = true;
    });
    await expect(attempt.call(HOUR, async () => {})).rejects.toBeInstanceOf(SubrequestsSpent);
    expect(attempt.refusal()).toBeInstanceOf(NoSubrequestsLeft);
    expect(cut).toBe(false);
  });
});

describe("a connection counts until its response headers (Cloudflare's relaxed limiting, 2026-04-09)", () => {
  it("six calls whose headers are in, their bodies still being read, hold no slot: a seventh leaves at once", async () => {
    const { outbound } = door();
    const bodies = Array.from({ length: OPEN_CONNECTIONS_MAX }, () => latch());
    const reading = bodies.map((body) =>
      outbound.call(HOUR, async (_signal, answered) => {
        answered();
        await body.opened;
        return "read";
      }),
    );
    let left = false;
    const seventh = outbound.call(HOUR, async () => {
      left = true;
      return "seventh";
    });
    await turn();
    expect(left).toBe(true);
    expect(await seventh).toBe("seventh");
    for (const body of bodies) body.open();
    expect(await Promise.all(reading)).toEqual(Array(OPEN_CONNECTIONS_MAX).fill("read"));
  });

  it("a call that never says its headers arrived holds its slot until it ends (a release is once only)", async () => {
    const slots = new ConnectionSlots();
    const outbound = new OutboundCalls(new InvocationMeters(100, "T1/0"), slots, new CallDeadlines(HOUR));
    const answers = Array.from({ length: OPEN_CONNECTIONS_MAX }, () => latch());
    const calls = answers.map((answer, n) =>
      outbound.call(HOUR, async (_signal, answered) => {
        if (n === 0) {
          answered();
          answered();
        }
        await answer.opened;
      }),
    );
    await turn();
    expect(slots.inUse).toBe(OPEN_CONNECTIONS_MAX - 1);
    for (const answer of answers) answer.open();
    await Promise.all(calls);
    expect({ inUse: slots.inUse, queued: slots.queued }).toEqual({ inUse: 0, queued: 0 });
  });
});
