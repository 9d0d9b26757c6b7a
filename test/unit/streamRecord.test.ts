import { describe, expect, it } from "vitest";
import { ReplyRecord } from "../../src/app/streams/replyRecord";
import { memoryLedger, streamRecordOf } from "../../src/app/streams/streamCheckpoints";

describe("a stream's checkpoint (streamRecordOf, ReplyRecord)", () => {
  it("none yet is an empty reply", () => {
    expect(streamRecordOf(undefined)).toEqual({ messages: [], chunks: 0 });
  });

  it("a checkpoint written before `finished` was so named (`done`) reads as finished", () => {
    const old = JSON.stringify({ channel: "C1", messages: [], chunks: 1, done: true });
    expect(streamRecordOf(old)).toEqual({ channel: "C1", messages: [], chunks: 1, finished: true });
    expect(streamRecordOf(JSON.stringify({ messages: [], chunks: 0, done: false }))).toEqual({ messages: [], chunks: 0 });
  });

  it("a finished reply is checkpointed as finished and reads back so", () => {
    const ledger = memoryLedger();
    const record = new ReplyRecord(ledger, "stream #0", streamRecordOf(undefined));
    record.opened({ ts: "1", text: "Hi", openedAt: 0, open: true }, 1);
    record.appended(record.last!, " there", 2);
    record.closed(record.last!);
    record.finish();
    const read = streamRecordOf(ledger.read("stream #0"));
    expect(read).toEqual({ messages: [{ ts: "1", text: "Hi there", openedAt: 0, open: false }], chunks: 3, finished: true });
    expect(new ReplyRecord(ledger, "stream #0", read).finished).toBe(true);
  });
});
