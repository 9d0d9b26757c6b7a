import { BoundedMap } from "../platform/boundedMap";
import type { InstallationChange, StatusAnswer, TokenAnswer } from "../rpc/installations";
import { TOKEN_REFRESH_MARGIN_MS } from "./refreshMargin";

/** What a shard knows of an installation: installed (with its token once a delivery asked), or not and why. */
export type Known =
  | { status: "installed"; botToken?: string; userToken?: string; botScopes?: string[]; expiresAt: number | null }
  | { status: "absent" | "uninstalled" | "revoked"; reason: string };

/**
 * What the asker needs: `status` (the ack: installed or not — asked without decrypting, and never
 * refreshing, on the ack path) or `token` (a delivery: a token with more than the refresh margin left).
 */
export type Need = "status" | "token";

/** An installed entry is used as is this long, then used while it is revalidated in the background. */
const FRESH_MS = 15_000;
/** Past this age an installed entry is not used: the lookup is awaited. */
const MAX_AGE_MS = 60_000;
/** "Not installed" is believed this long: an install reaches every shard by push, this bounds a lost push. */
const ABSENT_MS = 5_000;
/** Entries kept per isolate; the oldest go first. */
const MAX_ENTRIES = 10_000;

interface Entry {
  known: Known;
  at: number;
}

type Lookup<A> = () => Promise<A>;

/**
 * What shards know of installations, per isolate, so that neither the ack (installed or not,
 * answered 410) nor a delivery (the bot token) waits on the installation store in steady state.
 * Installs, uninstalls and revocations are pushed to every shard of the workspace
 * (notifyShards.ts) and land here at once; the age bounds cover a push that was lost. A token
 * is never used within TOKEN_REFRESH_MARGIN_MS of its expiry: the store refreshes it then.
 * Lookups are single-flight per isolate, and a lookup that a push overtook is not kept.
 */
export class InstallationCache {
  private readonly entries: BoundedMap<string, Entry>;
  /** Lookups in flight: each removes itself when settled. */
  private readonly lookups = new Map<string, Promise<StatusAnswer | TokenAnswer>>();
  /**
   * Bumped by every push: a lookup started before it answers from older state. Bounded like the
   * entries: a lookup is overtaken unnoticed only if as many other ids are pushed while it flies.
   */
  private readonly generations: BoundedMap<string, number>;

  constructor(maxEntries = MAX_ENTRIES) {
    this.entries = new BoundedMap(maxEntries);
    this.generations = new BoundedMap(maxEntries);
  }

  /** Installations remembered, and ids whose pushes are counted (for tests and stats). */
  counts(): { entries: number; generations: number } {
    return { entries: this.entries.size, generations: this.generations.size };
  }

  /** What is known now without waiting, or undefined when the store must be asked first. */
  peek(id: string, now: number, need: Need, lookup: Lookup<StatusAnswer | TokenAnswer>): Known | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const age = now - entry.at;
    const { known } = entry;
    if (known.status !== "installed") return age < ABSENT_MS ? known : undefined;
    if (age >= MAX_AGE_MS) return undefined;
    if (need === "token") {
      if (known.botToken === undefined) return undefined;
      if (known.expiresAt !== null && known.expiresAt - now <= TOKEN_REFRESH_MARGIN_MS) return undefined;
    }
    if (age >= FRESH_MS) void this.ask(id, need, lookup).catch(() => {});
    return known;
  }

  /** Installed or not, asking the store (`status()`, nothing decrypted) when the cache cannot say. */
  async status(id: string, now: number, lookup: Lookup<StatusAnswer>): Promise<StatusAnswer> {
    const known = this.peek(id, now, "status", lookup);
    if (known) return known.status === "installed" ? { status: "installed", expiresAt: known.expiresAt } : known;
    return (await this.ask(id, "status", lookup)) as StatusAnswer;
  }

  /** The token, asking the store (`token()`, which refreshes first if needed) when the cache cannot say. */
  async token(id: string, now: number, lookup: Lookup<TokenAnswer>): Promise<TokenAnswer> {
    const known = this.peek(id, now, "token", lookup);
    if (known?.status === "installed" && known.botToken !== undefined) {
      const { botToken, userToken, botScopes, expiresAt } = known;
      return {
        status: "installed",
        botToken,
        ...(userToken ? { userToken } : {}),
        ...(botScopes ? { botScopes } : {}),
        expiresAt,
      };
    }
    if (known && known.status !== "installed") return known;
    return (await this.ask(id, "token", lookup)) as TokenAnswer;
  }

  /** A change pushed by the store. */
  apply(id: string, change: InstallationChange, now: number): void {
    this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
    // Installed: the token comes on the next lookup. Gone: believed at once, and for the absent bound.
    if (change.status === "installed") this.entries.delete(id);
    else this.set(id, { status: change.status, reason: change.reason }, now);
  }

  private ask<A extends StatusAnswer | TokenAnswer>(id: string, need: Need, lookup: Lookup<A>): Promise<A> {
    const key = `${need}:${id}`;
    let pending = this.lookups.get(key) as Promise<A> | undefined;
    if (!pending) {
      const generation = this.generations.get(id) ?? 0;
      pending = lookup()
        .then((answer) => {
          // A push that arrived meanwhile is newer than this answer.
          if (answer.status !== "retry" && (this.generations.get(id) ?? 0) === generation) this.remember(id, answer);
          return answer;
        })
        .finally(() => this.lookups.delete(key));
      this.lookups.set(key, pending);
    }
    return pending;
  }

  /** Keeps an answer; a status answer keeps the token already known for the same expiry. */
  private remember(id: string, answer: Exclude<StatusAnswer | TokenAnswer, { status: "retry" }>): void {
    const previous = this.entries.get(id)?.known;
    if (answer.status === "installed" && !("botToken" in answer) && previous?.status === "installed") {
      const sameToken = previous.expiresAt === answer.expiresAt;
      const tokens = sameToken
        ? { botToken: previous.botToken, userToken: previous.userToken, botScopes: previous.botScopes }
        : {};
      this.set(id, { ...answer, ...tokens }, Date.now());
      return;
    }
    this.set(id, answer, Date.now());
  }

  private set(id: string, known: Known, now: number): void {
    this.entries.set(id, { known, at: now }, now);
  }
}

/** The isolate's cache, shared by every shard it hosts. */
export const installationCache = new InstallationCache();
