import { holdClock } from "../platform/heldClock";
import { shardName } from "../rpc/shardFor";

/**
 * What a test needs to see durability: a clock it moves (the coordinator reads `Date.now`), and
 * the shard's alarm run on demand (retries, leases, sweeps). The alarm runner is
 * `runDurableObjectAlarm` from `cloudflare:test`, passed in, so this kit loads outside workerd too.
 */
export type ShardAlarmRunner = (stub: DurableObjectStub) => Promise<boolean>;

export interface ShardAlarmOptions {
  /** The Worker's SHARD binding (`env.SHARD`), structurally: whatever class it is typed with. */
  shard: { idFromName(name: string): DurableObjectId; get(id: DurableObjectId): object };
  /** The team id (or enterprise id of an org install) whose shard to wake. */
  workspace: string;
  /** Its hash bucket, with SHARD_BUCKETS above 1; bucket 0 otherwise. */
  bucket?: number;
  runDurableObjectAlarm: ShardAlarmRunner;
}

/** Runs the workspace shard's alarm now, if one is set; true when it ran. */
export function runShardAlarm(options: ShardAlarmOptions): Promise<boolean> {
  const { shard } = options;
  const stub = shard.get(shard.idFromName(shardName(options.workspace, options.bucket ?? 0)));
  return options.runDurableObjectAlarm(stub as DurableObjectStub);
}

/**
 * Takes over `Date.now` for the tests' isolate (with @cloudflare/vitest-plugin the Worker and its
 * shards run in it), starting an hour ahead so alarms the shard arms lie in the real future: only
 * `runShardAlarm` fires them, after `advance`. A wait the coordinator makes for a time on this
 * clock — a paced call's turn, a stream's turn after Slack's pace — moves it there instead of
 * waiting in real time for a time that would never come (src/platform/heldClock.ts), so pacing
 * stays on in tests. `restore` gives the real clock back.
 */
export class TestClock {
  private current: number;
  private readonly real = Date.now;

  constructor(start = Date.now() + 3_600_000) {
    this.current = start;
    Date.now = () => this.current;
    holdClock({ reach: (at) => this.reach(at) });
  }

  now(): number {
    return this.current;
  }

  advance(ms: number): number {
    this.current += ms;
    return this.current;
  }

  /** Moves the clock to `at` if it is earlier (never back): what a wait on this clock does. */
  reach(at: number): number {
    this.current = Math.max(this.current, at);
    return this.current;
  }

  restore(): void {
    Date.now = this.real;
    holdClock(undefined);
  }
}
