import { shardName } from "../rpc/shardFor";
import type { ShardAlarmRunner } from "./shardAlarm";

/** What a test names to wait for a workspace shard: its binding, the workspace, its bucket. */
export interface SettledOptions {
  /** The Worker's SHARD binding (`env.SHARD`), structurally: whatever class it is typed with. */
  shard: { idFromName(name: string): DurableObjectId; get(id: DurableObjectId): object };
  /** The team id (or enterprise id of an org install) whose shard to wait for. */
  workspace: string;
  /** Its hash bucket, with SHARD_BUCKETS above 1; bucket 0 otherwise. */
  bucket?: number;
  /** `runDurableObjectAlarm` from `cloudflare:test`: given, each wait also runs an alarm the shard set (a sweep). */
  runDurableObjectAlarm?: ShardAlarmRunner;
  /** How long to wait at most (real time): 5 000 ms unless told. */
  timeoutMs?: number;
}

/** The shard's outbox once nothing is left to deliver: what is parked (for an operator) stays. */
export interface SettledOutbox {
  pending: number;
  parked: number;
}

interface StatsStub {
  stats(): Promise<{ outbox: SettledOutbox }>;
}

const POLL_MS = 10;

/**
 * Resolves once the workspace shard has nothing left to deliver: every delivery's run finished
 * and every effect it planned settled (sent, or parked) — so the test's next fake Slack gets none
 * of this test's calls (a run still clearing a thread's status after its stream stopped, say).
 * Rejects after `timeoutMs` naming what is still pending: a retry waiting for its backoff needs
 * the test to move its TestClock and run the shard's alarm (the message shows how).
 */
export async function waitUntilSettled(options: SettledOptions): Promise<SettledOutbox> {
  const { shard, timeoutMs = 5_000 } = options;
  const stub = shard.get(shard.idFromName(shardName(options.workspace, options.bucket ?? 0)));
  const until = performance.now() + timeoutMs;
  for (;;) {
    const { outbox } = await (stub as StatsStub).stats();
    if (outbox.pending === 0) return outbox;
    if (performance.now() > until)
      throw new Error(
        `waitUntilSettled: ${outbox.pending} effect(s) of ${options.workspace} still pending after ${timeoutMs} ms — a retry waiting for its backoff is delivered when the test moves its TestClock past it and runs the shard's alarm: clock.advance(15_000), then await runShardAlarm({ shard, workspace, runDurableObjectAlarm }), until it is sent (pacing stays on: a TestClock is moved to each paced call's turn)`,
      );
    if (options.runDurableObjectAlarm) await options.runDurableObjectAlarm(stub as DurableObjectStub);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
