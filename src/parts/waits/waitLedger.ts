import type { WaitLedger } from "../../app/contract";
import { waitBlockId } from "../../app/waits";
import { inSpan, type SpanAttributes } from "../../platform/spans";
import type { WaitStore } from "./waitStore";

/**
 * The durable waits of one run (`waitForAction`), in the shard's `waits` table. Their buttons name
 * this shard's bucket (the last part of its name), where every click on them is routed.
 */
export function waitLedgerFor(waits: WaitStore, key: string, shard: string, traced: SpanAttributes = {}): WaitLedger {
  const bucket = Number(shard.slice(shard.lastIndexOf("/") + 1)) || 0;
  // A wait outlives its attempts: its span is each change of it, named by what happened.
  const spanned = <T>(what: string, wait: string | number, change: () => T) =>
    inSpan("wait", { ...traced, wait: String(wait), "wait.change": what }, change);
  return {
    open(name, channel, deadline, answerers) {
      const wait = spanned("open", name, () => waits.open(key, name, { channel, deadline, answerers }, Date.now()));
      return { ...wait, blockId: waitBlockId(bucket, wait.waitId) };
    },
    posted: (waitId, messageTs) => waits.posted(waitId, messageTs),
    close: (waitId) => spanned("close", waitId, () => waits.close(waitId)),
    timeOut: (waitId) => spanned("timeOut", waitId, () => waits.timeOut(waitId, Date.now())),
  };
}
