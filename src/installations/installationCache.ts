import type { InstallationChange, TokenAnswer } from "./api";
import { TOKEN_REFRESH_MARGIN_MS } from "./refreshMargin";

/** What a shard knows of an installation: installed with a token, or not (and why). */
export type Known = Exclude<TokenAnswer, { status: "retry" }>;

/** An installed entry is used as is this long, then used while it is revalidated in the background. */
const FRESH_MS = 15_000;
/** Past this age an installed entry is not used: the lookup is awaited. */
const MAX_AGE_MS = 60_000;
/** "Not installed" is believed this long: an install reaches every shard by push, this bounds a lost push. */
const ABSENT_MS = 5_000;
/** Entries kept per isolate; the oldest go first. */
const MAX_ENTRIES = 10_000;

/**
 * What the asker needs: `status` (the ack: installed or not — a token near its expiry still says
 * installed, and asking must never refresh on the ack path) or `token` (a delivery: a token with
 * more than the refresh margin left).
 */
export type Need = "status" | "token";

interface Entry {
  known: Known;
  at: number;
}

/**
 * What shards know of installations, per isolate, so that neither the ack (installed or not,
 * answered 410) nor a delivery (the bot token) waits on the installation store in steady state.
 * Installs, uninstalls and revocations are pushed to every shard of the workspace
 * (notifyShards.ts) and land here at once; the age bounds cover a push that was lost. A token
 * is never used within TOKEN_REFRESH_MARGIN_MS of its expiry: the store refreshes it then.
 * Lookups of one installation are single-flight per isolate.
 */
export class InstallationCache {
  private readonly entries = new Map<string, Entry>();
  private readonly lookups = new Map<string, Promise<TokenAnswer>>();

  /** What is known now without waiting, or undefined when the store must be asked first. */
  peek(id: string, now: number, need: Need, lookup: () => Promise<TokenAnswer>): Known | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const age = now - entry.at;
    if (entry.known.status !== "installed") return age < ABSENT_MS ? entry.known : undefined;
    if (age >= MAX_AGE_MS) return undefined;
    const { expiresAt } = entry.known;
    if (need === "token" && expiresAt !== null && expiresAt - now <= TOKEN_REFRESH_MARGIN_MS) return undefined;
    if (age >= FRESH_MS) void this.ask(id, need, lookup).catch(() => {});
    return entry.known;
  }

  /** What is known, asking the store when the cache cannot answer. A "retry" answer is not kept. */
  async get(id: string, now: number, need: Need, lookup: () => Promise<TokenAnswer>): Promise<TokenAnswer> {
    return this.peek(id, now, need, lookup) ?? this.ask(id, need, lookup);
  }

  /** A change pushed by the store (or seen by the shard itself, app_uninstalled). */
  apply(id: string, change: InstallationChange, now: number): void {
    // Installed: the token comes on the next lookup. Gone: believed at once, and for the absent bound.
    if (change.status === "installed") this.entries.delete(id);
    else this.set(id, { status: change.status, reason: change.reason }, now);
  }

  private ask(id: string, need: Need, lookup: () => Promise<TokenAnswer>): Promise<TokenAnswer> {
    const key = `${need}:${id}`;
    let pending = this.lookups.get(key);
    if (!pending) {
      pending = lookup()
        .then((answer) => {
          if (answer.status !== "retry") this.set(id, answer, Date.now());
          return answer;
        })
        .finally(() => this.lookups.delete(key));
      this.lookups.set(key, pending);
    }
    return pending;
  }

  private set(id: string, known: Known, now: number): void {
    this.entries.delete(id);
    this.entries.set(id, { known, at: now });
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}

/** The isolate's cache, shared by every shard it hosts. */
export const installationCache = new InstallationCache();
