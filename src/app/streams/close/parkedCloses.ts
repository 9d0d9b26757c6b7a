import type { PlannedEffect } from "../../contract";
import { streamCheckpointName, streamRecordOf } from "../record/checkpoint";

/**
 * What closes the streams a parked run left open, read from its stream checkpoints (`read`, by
 * name; the parked row keeps them and takes no more writes): one `stream.close` per message its
 * checkpoint shows open, named by its ts, at the text the checkpoint shows (and whether the run's
 * last call to it may have shown more). A record without its
 * channel (written before it was kept) is in `channel`, the delivery's.
 */
export function parkedCloses(read: (name: string) => string | undefined, channel: string | undefined): PlannedEffect[] {
  const closes: PlannedEffect[] = [];
  for (let n = 0; ; n++) {
    const json = read(streamCheckpointName(n));
    if (json === undefined) return closes;
    const record = streamRecordOf(json);
    const where = record.channel ?? channel;
    if (where === undefined) continue;
    const { unconfirmed } = record;
    for (const { ts, text, open } of record.messages) {
      if (!open) continue;
      // The run's last call to it (an append, its stop) may have shown more than the checkpoint says.
      const more = unconfirmed?.ts === ts && unconfirmed.text !== "" ? { unconfirmed: true } : {};
      closes.push({ name: `stream:close:${ts}`, effect: { type: "stream.close", channel: where, ts, text, ...more } });
    }
  }
}
