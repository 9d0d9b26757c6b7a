import { InvalidSignature } from "product:src/platform/errors.ts";
import { verifySignature } from "product:src/slack/verifySignature.ts";

interface FloorEnv {
  SLACK_SIGNING_SECRET: string;
}

/**
 * The floor of the comparison: verifies Slack's signature with the coordinator's own code and
 * answers 200, storing and sending nothing. Whatever the coordinator adds is measured above this.
 */
export default {
  async fetch(request, env) {
    const body = new Uint8Array(await request.arrayBuffer());
    try {
      await verifySignature({
        secrets: [env.SLACK_SIGNING_SECRET],
        timestamp: request.headers.get("x-slack-request-timestamp"),
        signature: request.headers.get("x-slack-signature"),
        body,
        nowSeconds: Math.floor(Date.now() / 1000),
      });
    } catch (error) {
      if (error instanceof InvalidSignature) return new Response("invalid signature", { status: 401 });
      throw error;
    }
    return new Response(null, { status: 200 });
  },
} satisfies ExportedHandler<FloorEnv>;
