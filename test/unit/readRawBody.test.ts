import { describe, expect, it } from "vitest";
import { BodyTooLarge } from "../../src/platform/errors";
import { readRawBody } from "../../src/platform/readRawBody";

const bytes = (n: number) => new Uint8Array(n).fill(120);
/** A body without a declared length, as a chunked request or response has; counts the chunks read. */
function streamOf(...chunks: number[]) {
  const stream = { pulled: 0, body: new ReadableStream<Uint8Array>() };
  let next = 0;
  stream.body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const n = chunks[next++];
      if (n === undefined) return controller.close();
      stream.pulled++;
      controller.enqueue(bytes(n));
    },
  });
  return stream;
}

describe("readRawBody", () => {
  it("reads a body of declared length whole, and refuses a declared length over the cap before reading", async () => {
    const body = await readRawBody(new Response(bytes(100), { headers: { "content-length": "100" } }), 100);
    expect(body.byteLength).toBe(100);
    await expect(readRawBody(new Response(bytes(10), { headers: { "content-length": "101" } }), 100)).rejects.toThrow(
      BodyTooLarge,
    );
  });

  it("refuses a body over the cap whatever its declared length says", async () => {
    const lying = new Response(bytes(150), { headers: { "content-length": "10" } });
    await expect(readRawBody(lying, 100)).rejects.toThrow(BodyTooLarge);
  });

  it("reads an undeclared (chunked) body chunk by chunk, stopping once it passes the cap", async () => {
    expect((await readRawBody(new Response(streamOf(40, 60).body), 100)).byteLength).toBe(100);
    const long = streamOf(60, 60, 60, 60, 60);
    await expect(readRawBody(new Response(long.body), 100)).rejects.toThrow(BodyTooLarge);
    // Stopped at the chunk that passed the cap (the stream may have read one ahead), not at the end.
    expect(long.pulled).toBeLessThanOrEqual(3);
  });

  it("reads an encoded body (decoded on the way, so larger than declared) chunk by chunk under the cap", async () => {
    const encoded = streamOf(60, 60, 60, 60, 60);
    const response = new Response(encoded.body, { headers: { "content-length": "20", "content-encoding": "gzip" } });
    await expect(readRawBody(response, 100)).rejects.toThrow(BodyTooLarge);
    expect(encoded.pulled).toBeLessThanOrEqual(3);
  });
});
