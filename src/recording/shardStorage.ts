import { describeError, log } from "../platform/log";
import { Schema } from "../platform/sql/schema";
import { WakeUps } from "../platform/wakeUps";

/** While delivery is paused by an invalid setting (or the schema is missing), the alarm looks again this often. */
export const PAUSED_RETRY_MS = 60_000;

/**
 * A shard's storage as its parts share it: the schema, and the one alarm every part registers
 * its wake source with (wakeUps.ts). The alarm's frame is here; what it does is each role's.
 */
export class ShardStorage extends Schema {
  readonly wakeUps: WakeUps;

  constructor(
    storage: DurableObjectStorage,
    readonly name: string,
  ) {
    super(storage);
    this.wakeUps = new WakeUps(storage);
  }

  /**
   * The constructor's part, under blockConcurrencyWhile: schema first, then the alarm already set.
   * A schema newer than this code is said here, once per instance; each request then meets it.
   */
  async load(): Promise<void> {
    this.open();
    if (this.refusal)
      log("error", "shard refuses every request: its schema is newer than this code", {
        shard: this.name,
        schemaMigration: this.refusal.applied.id,
        codeMigration: this.refusal.known?.id ?? 0,
        error: this.refusal.message,
      });
    await this.wakeUps.load();
  }

  /**
   * Runs the role's alarm work, which never throws out of here (the runtime stops retrying after
   * six failures), then re-arms for the earliest wake source. Without a schema (its migration
   * failed, or it is newer than this code) the sources have no tables to read; with delivery
   * paused, due rows would wake us at once: either way, look again a minute later.
   */
  async alarm(work: (now: number) => void | Promise<void>, deliveryReady: boolean): Promise<void> {
    this.wakeUps.consumed();
    // A schema newer than this code: no work, no log line (load said it); the alarm stays set,
    // so a version that knows the schema, once deployed, sweeps what waits.
    if (this.refusal) return this.wakeUps.arm(Date.now() + PAUSED_RETRY_MS);
    const started = Date.now();
    try {
      this.migrate();
      await work(started);
    } catch (error) {
      log("error", "alarm failed; re-arming", { shard: this.name, error: describeError(error) });
    }
    const now = Date.now();
    if (!this.migrated) this.wakeUps.arm(now + PAUSED_RETRY_MS);
    // The sources are read only here, with the schema in place.
    else this.wakeUps.rearm(now, deliveryReady ? now : now + PAUSED_RETRY_MS);
  }
}
