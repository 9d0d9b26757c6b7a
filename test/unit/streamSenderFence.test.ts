import { describe, expect, it } from "vitest";
import type { StreamLedger } from "../../src/app/contract/streamTools";
import type { StreamRecord } from "../../src/app/streams/record/checkpoint";
import { StreamSender } from "../../src/app/streams/send/streamSender";
import { LeaseLost, Paced } from "../../src/platform/errors";
import type { SlackWebClient } from "../../src/slack/client";

describe("a stream call held back (pacer or 429) is fenced again before it is sent", () => {
  it("the lease lost while it waited for its turn: the call is not sent by the old attempt", async () => {
    let fenced = false;
    const ledger: StreamLedger = {
      read: () => undefined,
      write: () => {
        // Another attempt owns the run from now on: this one's checkpoints are refused.
        if (fenced) throw new LeaseLost("lease lost");
      },
    };
    let sent = 0;
    const call = async () => {
      sent++;
      if (sent === 1) throw new Paced("chat.appendStream", Date.now() + 1_000);
      return { ok: true };
    };
    const sleep = async () => {
      fenced = true;
    };
    const record: StreamRecord = { messages: [], chunks: 0 };
    const thread = { channel: "C0FENCE", threadTs: "1700000000.000100" };
    const sender = new StreamSender({} as SlackWebClient, thread, {}, ledger, "stream #0", record, sleep);
    await expect(sender.send({ op: "append", ts: "1700000000.000200", text: "more" }, call)).rejects.toBeInstanceOf(LeaseLost);
    expect(sent).toBe(1);
  });
});
