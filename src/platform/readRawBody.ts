import { BodyTooLarge } from "./errors";

/** Slack payloads are a few KiB; anything near this is not from Slack. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads a body once, as bytes (the signature covers the exact bytes), refusing more than the cap:
 * a request from Slack, or a relay backend's response.
 */
export async function readRawBody(
  request: Pick<Request, "headers" | "body" | "arrayBuffer">,
  maxBytes = MAX_BODY_BYTES,
): Promise<Uint8Array> {
  const length = request.headers.get("content-length");
  const declared = Number(length);
  if (declared > maxBytes) throw new BodyTooLarge(`content-length ${declared} exceeds ${maxBytes}`);
  if (!request.body) return new Uint8Array();
  const encoding = request.headers.get("content-encoding");
  if (length !== null && /^\d{1,9}$/.test(length) && (encoding === null || encoding === "identity")) {
    // HTTP framing holds a body to its declared length, within the cap: one read, no chunk loop
    // (Slack always declares it). Checked again for bodies not framed by HTTP.
    const body = new Uint8Array(await request.arrayBuffer());
    if (body.byteLength > maxBytes) throw new BodyTooLarge(`body exceeds ${maxBytes} bytes`);
    return body;
  }

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyTooLarge(`body exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
