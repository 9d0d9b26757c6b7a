/** A request to a FakeSlack as Slack reads it: the method its path names, its body, its token. */

export interface FakeRequest {
  /** A Web API method (`chat.postMessage`), `file_upload` or `response_url`. */
  method: string;
  body: Record<string, unknown>;
  /** The Authorization header as sent, or null. */
  token: string | null;
  contentType: string | null;
}

/** A request body as Slack reads it: JSON, or a form whose JSON-looking values (`blocks`, `view`) are JSON. */
function parseBody(text: string, contentType: string | null): Record<string, unknown> {
  if (contentType?.includes("application/json")) return JSON.parse(text) as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const looksJson = value.startsWith("{") || value.startsWith("[");
    body[key] = looksJson ? JSON.parse(value) : value;
  }
  return body;
}

export async function readRequest(request: Request): Promise<FakeRequest> {
  const { pathname } = new URL(request.url);
  // Web API methods under /api/, file uploads (files.uploadV2's second step) under /upload/,
  // anything else is a response_url.
  const method = pathname.startsWith("/api/")
    ? pathname.slice(5)
    : pathname.startsWith("/upload/")
      ? "file_upload"
      : "response_url";
  // Bytes, decoded here: workerd warns when .text() reads a form body.
  const text = new TextDecoder().decode(await request.arrayBuffer());
  const contentType = request.headers.get("content-type");
  const body = method === "file_upload" ? { bytes: text } : parseBody(text, contentType);
  return { method, body, token: request.headers.get("authorization"), contentType };
}
