import { BodyTooLarge } from "../errors";

/** Slack payloads are a few KiB; anything near this is not from Slack. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads a body once, as bytes (the signature covers the exact bytes), refusing more than the cap:
 * a request from Slack, or a relay backend's answer.
 */
export async function readRawBody(request: Pick<Request, "headers" | "body">, maxBytes = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length"));
  if (declared > maxBytes) throw new BodyTooLarge(`content-length ${declared} exceeds ${maxBytes}`);
  if (!request.body) return new Uint8Array();

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
