import { describe, expect, it, vi } from "vitest";
import { relayTraceparent, validTraceparent } from "../../src/relay/traceparent";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, mentionDelivery, newWorkspace, shardStub } from "../support/coordinator";
import { useFakeSlackAndBackend } from "../support/fakeBackend";

const { backend } = useFakeSlackAndBackend();

const W3C = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;
const traceparents = () => backend().requests.map((request) => request.headers.get("traceparent") ?? "");

describe("relay mode: W3C trace context", () => {
  it("each attempt carries a valid traceparent; retries share the trace id, each attempt its own parent id", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    backend().answerNext({ status: 500 });
    const { envelope, delivery } = await mentionDelivery(team);
    expect((await deliver(delivery)).status).toBe(200);
    await vi.waitFor(async () => expect((await shardStub(team).stats()).counters.retried).toBe(1));
    await sweepUntilQuiet(shardStub(team), clock);

    const [first, second] = traceparents();
    expect(traceparents()).toHaveLength(2);
    const [, traceId, firstParent] = W3C.exec(first!) ?? [];
    const [, sameTrace, secondParent] = W3C.exec(second!) ?? [];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(sameTrace).toBe(traceId);
    expect(secondParent).not.toBe(firstParent);
    // Derived from the event id: any invocation, after any restart, names the same trace.
    expect(first).toBe(await relayTraceparent(String(envelope.event_id), 1));
  });

  it("a traceparent on Slack's request is continued: its trace id and flags, a parent id of the relay's", async () => {
    const team = newWorkspace();
    const caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";
    const { delivery } = await mentionDelivery(team);
    expect((await deliver({ ...delivery, headers: { ...delivery.headers, traceparent: caller } })).status).toBe(200);
    await vi.waitFor(() => expect(traceparents()).toHaveLength(1));
    const [sent] = traceparents();
    expect(sent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-00$/);
    expect(sent).not.toContain("00f067aa0ba902b7");
  });

  it("a malformed or all-zero traceparent is dropped, as W3C asks", () => {
    expect(validTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBeDefined();
    expect(validTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBeUndefined();
    expect(validTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01")).toBeUndefined();
    expect(validTraceparent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")).toBeUndefined();
    expect(validTraceparent("garbage")).toBeUndefined();
    expect(validTraceparent(null)).toBeUndefined();
  });
});
