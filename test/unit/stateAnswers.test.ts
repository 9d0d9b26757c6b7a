import { afterEach, describe, expect, it, vi } from "vitest";
import { MissingScope, SlackApiError } from "../../src/platform/errors";
import { createSlackClient } from "../../src/slack/client";

afterEach(() => vi.unstubAllGlobals());

/** A client whose every request Slack answers with `answer`; `told` records what alerts would be told. */
function clientAnswering(answer: Record<string, unknown>) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json(answer)),
  );
  const told: Array<[string, boolean]> = [];
  const client = createSlackClient({
    apiUrl: "http://fake-slack.invalid/api/",
    timeoutMs: 1_000,
    token: () => "xoxb-test",
    responseUrlOrigins: [],
    observe: (method, ok) => told.push([method, ok]),
  });
  return { client, told };
}

describe("a message-state answer (the stream no longer streams)", () => {
  it("still throws for its caller, who acts on it, but is told to alerts as a healthy answer", async () => {
    const { client, told } = clientAnswering({ ok: false, error: "message_not_in_streaming_state" });
    const stop = client.call("chat.stopStream", { channel: "C1", ts: "1.2" });
    await expect(stop).rejects.toMatchObject({ code: "message_not_in_streaming_state" });
    await expect(client.call("chat.appendStream", { channel: "C1", ts: "1.2", markdown_text: "x" })).rejects.toBeInstanceOf(
      SlackApiError,
    );
    expect(told).toEqual([
      ["chat.stopStream", true],
      ["chat.appendStream", true],
    ]);
  });

  it("is a failure for any other method, and any other refusal is a failure of its method", async () => {
    const { client, told } = clientAnswering({ ok: false, error: "message_not_in_streaming_state" });
    await expect(client.call("chat.update", { channel: "C1", ts: "1.2", text: "x" })).rejects.toBeInstanceOf(SlackApiError);
    const other = clientAnswering({ ok: false, error: "channel_not_found" });
    await expect(other.client.call("chat.stopStream", { channel: "C1", ts: "1.2" })).rejects.toBeInstanceOf(SlackApiError);
    expect([...told, ...other.told]).toEqual([
      ["chat.update", false],
      ["chat.stopStream", false],
    ]);
  });
});

describe("a refusal for a scope the workspace did not grant (missing_scope)", () => {
  it("is parked at once, never retried, and says which scope Slack named", async () => {
    const { client } = clientAnswering({ ok: false, error: "missing_scope", needed: "reactions:write", provided: "chat:write" });
    const refused = client.call("reactions.add", { channel: "C1", timestamp: "1.2", name: "eyes" });
    await expect(refused).rejects.toBeInstanceOf(MissingScope);
    await expect(refused).rejects.toMatchObject({
      code: "missing_scope",
      disposition: "park",
      needed: "reactions:write",
      message: "reactions.add: 200 missing_scope (needs reactions:write, which this workspace did not grant)",
    });
  });
});
