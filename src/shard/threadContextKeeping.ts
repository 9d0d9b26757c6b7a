import { log } from "../platform/log";
import { AssistantThreads } from "../recording/assistantThreads";
import type { ShardStorage } from "../recording/shardStorage";
import type { CoordinatorEnv } from "../rpc/env";
import { recordSettings } from "../settings";

/** Contexts deleted per alarm, so no alarm runs long; a full batch brings the alarm back soon. */
const PRUNE_BATCH = 500;
/** Alarms for pruning contexts alone come no more often than this. */
const PRUNE_INTERVAL_MS = 60_000;

/**
 * A workspace shard's assistant thread contexts (recording/assistantThreads.ts): the store its runs
 * read and save, pruned THREAD_CONTEXT_RETENTION_DAYS after a context's last save (its own wake
 * source), and deleted when the workspace's installation goes.
 */
export class ThreadContextKeeping {
  readonly store: AssistantThreads;
  private readonly retentionMs: number;

  constructor(
    private readonly storage: ShardStorage,
    env: CoordinatorEnv,
  ) {
    this.store = new AssistantThreads(storage.sql);
    // Read with the receipts' retention: a bad value halts recording, as RECEIPT_RETENTION_HOURS does.
    this.retentionMs = recordSettings(env).threadContextRetentionMs;
    storage.wakeUps.register((now) => {
      const oldest = this.store.oldestSavedAt();
      return oldest === null ? null : Math.max(oldest + this.retentionMs, now + PRUNE_INTERVAL_MS);
    });
  }

  /** The alarm's part: contexts past the retention are deleted, a batch at a time. */
  prune(now: number): void {
    const pruned = this.store.pruneSavedBefore(now - this.retentionMs, PRUNE_BATCH);
    if (pruned === PRUNE_BATCH) this.storage.wakeUps.arm(now + 1_000);
    if (pruned > 0) log("info", "thread contexts pruned", { shard: this.storage.name, pruned });
  }

  /** The workspace's installation is gone (uninstalled, tokens revoked): its threads' contexts go with it. */
  installationGone(workspace: string): number {
    const deleted = this.store.deleteWorkspace(workspace);
    if (deleted > 0) log("info", "thread contexts deleted: installation gone", { shard: this.storage.name, workspace, deleted });
    return deleted;
  }
}
