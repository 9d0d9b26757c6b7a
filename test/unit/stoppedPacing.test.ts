import { describe, expect, it, vi } from "vitest";
import { RunStopped } from "../../src/platform/errors";
import { createSlackClient } from "../../src/slack/client";

describe("a run stopped while its call waits for its paced turn", () => {
  it("is refused at the stop, unsent, instead of waiting out Slack's pace", async () => {
    const sent = vi.fn(async () => Response.json({ ok: true }));
    vi.stubGlobal("fetch", sent);
    const stop = new AbortController();
    // The pacer holds this call back until a turn that never comes within the test.
    const before = vi.fn(() => new Promise<void>(() => {}));
    const client = createSlackClient({
      apiUrl: "http://fake-slack.invalid/api/",
      timeoutMs: 1_000,
      token: () => "xoxb-test",
      responseUrlOrigins: [],
      pacing: { before, rateLimited: async () => undefined },
      stopped: stop.signal,
    });
    const call = client.chat.appendStream({ channel: "C1", ts: "1.2", markdown_text: "more" });
    await vi.waitFor(() => expect(before).toHaveBeenCalledTimes(1));
    stop.abort();
    await expect(call).rejects.toBeInstanceOf(RunStopped);
    expect(sent).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
