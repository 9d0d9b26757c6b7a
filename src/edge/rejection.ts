/**
 * A request the edge refuses, with the status Slack should see. `noRetry` adds
 * `x-slack-no-retry: 1` — only for conditions a retry cannot change.
 */
export class Rejection extends Error {
  override name = "Rejection";
  constructor(readonly status: number, message: string, readonly noRetry = false) {
    super(message);
  }

  toResponse(): Response {
    const headers = new Headers({ "content-type": "text/plain;charset=utf-8" });
    if (this.noRetry) headers.set("x-slack-no-retry", "1");
    return new Response(this.message, { status: this.status, headers });
  }
}
