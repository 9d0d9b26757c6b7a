import type { StreamCloseEffect } from "../app/contract";
import { GONE, NOT_STREAMING, refusedWith } from "../slack/refusals";
import type { EffectKind } from "./kind";

/**
 * `stream.close`: a message a parked run left streaming is closed (`chat.stopStream`); one Slack
 * no longer streams (dropped, or stopped in Slack) is set to exactly its checkpointed text
 * (`chat.update`), so a retry of this row and a replay of the run (which continues in a new
 * message) both find it as the checkpoint says.
 * A message deleted meanwhile (message_not_found) is closed already: nothing of it shows.
 */
export const streamClose: EffectKind<StreamCloseEffect> = {
  type: "stream.close",
  async perform({ channel, ts, text }, { client }) {
    try {
      await client.call("chat.stopStream", { channel, ts });
    } catch (error) {
      if (refusedWith(error, GONE)) return;
      if (!refusedWith(error, NOT_STREAMING)) throw error;
      await client.call("chat.update", { channel, ts, markdown_text: text });
    }
  },
  rateKey: () => "chat.stopStream",
};
