import type { StreamCloseEffect } from "../app/contract";
import { closeMessage } from "../app/streams";
import type { EffectKind } from "./kind";

/**
 * `stream.close`: a message a parked run left streaming is closed (app/streams/close/closeMessage.ts):
 * stopped, or, when Slack no longer streams it (dropped, or stopped already: the stop button's own
 * chat.stopStream), set to exactly its checkpointed text, so a retry of this row and a replay of
 * the run (which continues in a new message) both find it as the checkpoint says — unless that
 * could take away text the user saw (none checkpointed, or the run's last call to it unconfirmed):
 * then it stays as Slack shows it, and a replay may repeat that call's text in its new message. A
 * message deleted meanwhile (message_not_found) is closed already: nothing of it shows. Each call
 * is sent once: a pacer's or Slack's 429 retries the row.
 */
export const streamClose: EffectKind<StreamCloseEffect> = {
  type: "stream.close",
  async perform({ channel, ts, text, unconfirmed }, { client }) {
    const stop = () => client.call("chat.stopStream", { channel, ts });
    const leave = text === "" || unconfirmed === true;
    const update = async () => (leave ? undefined : client.call("chat.update", { channel, ts, markdown_text: text }));
    await closeMessage({ stop, update }, { goneIsClosed: true });
  },
  rateKey: () => "chat.stopStream",
};
