import { describe, expect, it } from "vitest";
import { readRawBody } from "../src/edge/readRawBody";
import { BodyTooLarge } from "../src/errors";

const bytes = (n: number) => new Uint8Array(n).fill(120);
/** A body without a declared length, as a chunked request or response has. */
const streamOf = (...chunks: number[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const n of chunks) controller.enqueue(bytes(n));
      controller.close();
    },
  });

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
    expect((await readRawBody(new Response(streamOf(40, 60)), 100)).byteLength).toBe(100);
    await expect(readRawBody(new Response(streamOf(60, 60, 60)), 100)).rejects.toThrow(BodyTooLarge);
  });

  it("reads an encoded body (decoded on the way, so larger than declared) chunk by chunk under the cap", async () => {
    const encoded = new Response(streamOf(60, 60), { headers: { "content-length": "20", "content-encoding": "gzip" } });
    await expect(readRawBody(encoded, 100)).rejects.toThrow(BodyTooLarge);
  });
});
