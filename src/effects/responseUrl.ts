import type { ResponseUrlEffect } from "../app/contract";
import type { EffectKind } from "./kind";

/**
 * `response_url`: a POST to a command's or interaction's response_url — only to an origin in
 * RESPONSE_URL_ORIGINS, and within the URL's 30 minutes and 5 uses (slack/handles.ts).
 */
export const responseUrl: EffectKind<ResponseUrlEffect> = {
  type: "response_url",
  attemptUsesResponseUrl: true,
  async perform(effect, { client }) {
    await client.respond(effect.url, effect.body);
  },
};
