import type { ThreadContextStore } from "../../app/contract";
import { log } from "../../platform/log";
import type { CoordinatorEnv } from "../../rpc/env";
import { recordSettings } from "../../settings";
import type { PartWorld, ShardPart } from "../part";
import { AssistantThreads } from "./assistantThreads";
import { SessionTitles } from "./sessionTitles";

/** Contexts deleted per alarm, so no alarm runs long; a full batch brings the alarm back soon. */
const PRUNE_BATCH = 500;
/** Alarms for pruning contexts alone come no more often than this. */
const PRUNE_INTERVAL_MS = 60_000;

/**
 * A workspace shard's assistant thread contexts (`assistantThreads.ts`) and the titles its users
 * chose for agent sessions (`sessionTitles.ts`): the store its runs read and save, pruned
 * THREAD_CONTEXT_RETENTION_DAYS after a last save, and deleted when the workspace's installation
 * goes. Built by the role that keeps them (shard/workspaceShard.ts), not by every delivery loop.
 */
export class ThreadContexts implements ShardPart {
  readonly store: ThreadContextStore;
  private readonly contexts: AssistantThreads;
  private readonly titles: SessionTitles;
  private readonly retentionMs: number;

  constructor(
    private readonly world: Pick<PartWorld, "shard" | "outbox" | "wakeAt">,
    env: CoordinatorEnv,
  ) {
    const contexts = new AssistantThreads(world.outbox.sql);
    const titles = new SessionTitles(world.outbox.sql);
    this.contexts = contexts;
    this.titles = titles;
    this.store = {
      get: (thread) => contexts.get(thread),
      save: (thread, context, saved) => contexts.save(thread, context, saved),
      userTitle: (thread) => titles.userTitle(thread),
      keepUserTitle: (thread, title, saved) => titles.keepUserTitle(thread, title, saved),
    };
    // Read with the receipts' retention: a bad value halts recording, as RECEIPT_RETENTION_HOURS does.
    this.retentionMs = recordSettings(env).threadContextRetentionMs;
  }

  wakeAt(now: number): number | null {
    const kept = [this.contexts.oldestSavedAt(), this.titles.oldestSavedAt()].filter((at) => at !== null);
    const oldest = kept.length > 0 ? Math.min(...kept) : null;
    return oldest === null ? null : Math.max(oldest + this.retentionMs, now + PRUNE_INTERVAL_MS);
  }

  /** The alarm's part: contexts past the retention are deleted, a batch at a time. */
  prune(now: number): void {
    const before = now - this.retentionMs;
    const contexts = this.contexts.pruneSavedBefore(before, PRUNE_BATCH);
    const titles = this.titles.pruneSavedBefore(before, PRUNE_BATCH);
    const pruned = contexts + titles;
    if (contexts === PRUNE_BATCH || titles === PRUNE_BATCH) this.world.wakeAt(now + 1_000);
    if (pruned > 0) log("info", "thread contexts pruned", { shard: this.world.shard, pruned });
  }

  /** The workspace's installation is gone (uninstalled, tokens revoked): its threads' contexts go with it. */
  installationGone(workspace: string): number {
    const deleted = this.contexts.deleteWorkspace(workspace) + this.titles.deleteWorkspace(workspace);
    if (deleted > 0) log("info", "thread contexts deleted: installation gone", { shard: this.world.shard, workspace, deleted });
    return deleted;
  }
}
