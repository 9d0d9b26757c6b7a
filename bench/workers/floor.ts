import { verifiedBody } from "./verifiedBody";

interface FloorEnv {
  SLACK_SIGNING_SECRET: string;
}

/**
 * The floor of the comparison: verifies Slack's signature with the coordinator's own code and
 * answers 200, storing and sending nothing. Whatever the coordinator adds is measured above this.
 */
export default {
  async fetch(request, env) {
    if (!(await verifiedBody(request, env.SLACK_SIGNING_SECRET))) return new Response("invalid signature", { status: 401 });
    return new Response(null, { status: 200 });
  },
} satisfies ExportedHandler<FloorEnv>;
