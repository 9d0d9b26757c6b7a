import { InvalidSignature } from "product:src/platform/errors.ts";
import { verifySignature } from "product:src/slack/verifySignature.ts";

/** The request's body when Slack's signature on it holds (the coordinator's own check); null when it does not. */
export async function verifiedBody(request: Request, signingSecret: string): Promise<Uint8Array | null> {
  const body = new Uint8Array(await request.arrayBuffer());
  try {
    await verifySignature({
      secrets: [signingSecret],
      timestamp: request.headers.get("x-slack-request-timestamp"),
      signature: request.headers.get("x-slack-signature"),
      body,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    return body;
  } catch (error) {
    if (error instanceof InvalidSignature) return null;
    throw error;
  }
}
