import { describe, expect, it } from "vitest";
import { stoppedStreams } from "../../src/inbound/stoppedStreams";
import { inboundOf as delivery } from "../support/inboundOf";

const event = (type: string, fields: Record<string, unknown>) => delivery("event", type, { event: { type, ...fields } });

/** Slack's documented `agent_session_stopped` (docs.slack.dev/reference/events/agent_session_stopped). */
const DOCUMENTED = {
  channel: "C0123ABC456",
  event_ts: "1783536983.783769",
  streaming_message_ts: ["1782234987.693923"],
  thread_ts: "1782234671.392669",
  user: "U123ABC456",
};

describe("the streams a stop names (streaming_message_ts: those Slack stopped at the click)", () => {
  it("reads Slack's documented event; none when no stream was active, or for any other delivery", () => {
    expect(stoppedStreams(event("agent_session_stopped", DOCUMENTED))).toEqual(["1782234987.693923"]);
    expect(stoppedStreams(event("agent_session_stopped", { ...DOCUMENTED, streaming_message_ts: [] }))).toEqual([]);
    const { streaming_message_ts: _, ...withoutTheField } = DOCUMENTED;
    expect(stoppedStreams(event("agent_session_stopped", withoutTheField))).toEqual([]);
    expect(stoppedStreams(event("message", { ...DOCUMENTED, ts: "1.1" }))).toEqual([]);
  });
});
