import { describe, expect, it } from "vitest";
import { memoryLedger, streamRecordOf } from "../../src/app/streams/record/checkpoint";
import { ReplyRecord } from "../../src/app/streams/record/replyRecord";

describe("a stream's checkpoint (streamRecordOf, ReplyRecord)", () => {
  it("none yet is an empty reply", () => {
    expect(streamRecordOf(undefined)).toEqual({ messages: [], chunks: 0 });
  });

  it("a finished reply is checkpointed as `done` (the stored name a Worker of the version before reads too) and reads back as finished", () => {
    const ledger = memoryLedger();
    const record = new ReplyRecord(ledger, "stream #0", streamRecordOf(undefined));
    record.opened({ ts: "1", text: "Hi", openedAt: 0, open: true }, 1);
    record.appended(record.last!, " there", 2);
    record.closed(record.last!);
    record.finish();
    const read = streamRecordOf(ledger.read("stream #0"));
    expect(read).toEqual({ messages: [{ ts: "1", text: "Hi there", openedAt: 0, open: false }], chunks: 3, done: true });
    expect(new ReplyRecord(ledger, "stream #0", read).finished).toBe(true);
  });
});
