import { afterEach, describe, expect, it, vi } from "vitest";
import { callWebApi, postFileBytes, postToResponseUrl } from "../../src/slack/webApi";
import { latch } from "../support/latch";

// The Web API client tells its caller when a response's headers are in — before the body is read —
// so the shard's connection slot is freed there (platform/outboundCalls.ts).

afterEach(() => vi.restoreAllMocks());

/** A fetch whose answer's headers come at once and whose body waits for `body.open()`. */
function slowBody(text: string) {
  const body = latch();
  const encoder = new TextEncoder();
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        await body.opened;
        controller.enqueue(encoder.encode(text));
        controller.close();
      },
    });
    return new Response(stream, { status: 200, headers: { "content-type": "application/json" } });
  });
  return body;
}

describe("headers arrived, body not yet read", () => {
  const cases = {
    callWebApi: (answered: () => void) =>
      callWebApi({
        apiUrl: "http://127.0.0.1:9/api/",
        authorization: "Bearer xoxb-test",
        method: "chat.postMessage",
        body: { channel: "C1", text: "hi" },
        signal: new AbortController().signal,
        answered,
      }),
    postToResponseUrl: (answered: () => void) =>
      postToResponseUrl("http://127.0.0.1:9/respond", { text: "hi" }, new AbortController().signal, answered),
    postFileBytes: (answered: () => void) =>
      postFileBytes("http://127.0.0.1:9/upload", new Uint8Array([1, 2]), new AbortController().signal, answered),
  };
  for (const [name, call] of Object.entries(cases)) {
    it(`${name}: told before the body is read, and the answer is whole after`, async () => {
      const body = slowBody('{"ok":true,"ts":"1.2"}');
      let told = 0;
      const answer = call(() => told++);
      await vi.waitFor(() => expect(told).toBe(1));
      body.open();
      expect(await answer).toMatchObject({ status: 200, ok: true, body: { ok: true, ts: "1.2" } });
      expect(told).toBe(1);
    });
  }
});
