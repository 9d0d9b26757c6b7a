import type { LateEvent, SlackApp } from "../app/contract";
import { waitClickOf } from "../app/waits";
import type { Inbound } from "../inbound/types";
import { BudgetExceeded, NotRecorded, Overloaded, WorkspaceNotInstalled } from "../platform/errors";
import { describeError, log } from "../platform/log";
import { settleWithin } from "../platform/settleWithin";
import type { CoordinatorEnv } from "../rpc/env";
import type { IngestResult } from "../rpc/shard";
import { shardOf } from "../rpc/shardFor";
import { edgeSettings } from "../settings";
import { cachedLayouts, layoutsOf } from "./layoutCache";
import { isOverloaded, recordWithinBudget } from "./recordWithinBudget";
import { servedApp } from "./servedApp";

/** What became of an inbound delivery. */
export type Recorded =
  | { verdict: "ignored"; reason: string }
  | (Omit<IngestResult, "verdict"> & { verdict: "accepted" | "duplicate"; shard: string; ingestAttempts: number });

/**
 * Records one parsed, verified delivery in the shard that owns it, within the ack budget — the
 * seam every way in shares (the Slack endpoints now; backfill and resharding next). Deliberately
 * ignored deliveries never reach a shard: nothing to store, nothing to retry. Throws NotRecorded
 * (503, Slack retries) when the record was not confirmed durable in time, Overloaded (503 too) when
 * the shard refused it as overloaded (nothing recorded), and, in OAuth mode,
 * WorkspaceNotInstalled (410, no retry) when the shard found no installation for the workspace.
 * `at`: the shard that must record it instead of the one routing gives — a re-run's original's
 * (admin/eventRerun.ts), so both stories, and every retry of the re-run, meet in one shard.
 */
export async function recordInbound(env: CoordinatorEnv, app: SlackApp, inbound: Inbound, at?: string): Promise<Recorded> {
  // With what the coordinator plans itself (relay, lifecycle events), as the shard would: the plan goes with the
  // delivery, so the shard plans it no more.
  const plan = servedApp(app, env).plan(inbound);
  if (plan.late) logLateEvent(inbound, plan.late);
  if ("ignore" in plan) return { verdict: "ignored", reason: plan.ignore };

  const { ackBudgetMs, shardBuckets, ingestsInFlightMax } = edgeSettings(env);
  const now = Date.now();
  const deadline = now + ackBudgetMs;
  let shard: string | undefined;
  let recorded: Awaited<ReturnType<typeof recordWithinBudget>> & { shard: string };
  try {
    // Routed by the layouts in force at times every retry repeats (docs/guides/sharding.md): every retry meets its receipt.
    // Known to this instance (the steady state): no read to wait for, so no timer to set.
    // A shard given (`at`) needs none.
    const layouts =
      at !== undefined
        ? []
        : (cachedLayouts(inbound.workspace, now) ??
          (await settleWithin(layoutsOf(env, inbound.workspace, now), ackBudgetMs, () => {
            throw new BudgetExceeded("bucket layouts not read within the ack budget");
          })));
    shard = at ?? shardOf(inbound, layouts, now, shardBuckets);
    if (shard === undefined) return outsideLayouts(inbound);
    recorded = {
      ...(await recordWithinBudget(env.SHARD, shard, inbound, deadline - Date.now(), plan, ingestsInFlightMax)),
      shard,
    };
  } catch (error) {
    // Not confirmed durable: answer non-2xx without x-slack-no-retry so Slack's retry can still save it.
    const overloaded = isOverloaded(error);
    log(overloaded ? "warn" : "error", overloaded ? "event refused: shard overloaded" : "event not recorded", {
      event_id: inbound.dedupeKey,
      dedupeKey: inbound.dedupeKey,
      shard,
      error: describeError(error),
    });
    // An overloaded shard (its own refusal, or Cloudflare's) recorded nothing: a fault apart from a slow commit.
    throw overloaded ? new Overloaded() : new NotRecorded();
  }
  const { result, attempts } = recorded;
  // The shard may ignore too: one without the edge's plan plans it again (an older one, mid-deploy).
  if (result.verdict === "ignored") return { verdict: "ignored", reason: `by shard ${recorded.shard}` };
  if (result.verdict === "not_installed")
    throw new WorkspaceNotInstalled(`workspace not installed: ${result.reason ?? "unknown"}`);
  return { ...result, verdict: result.verdict, shard: recorded.shard, ingestAttempts: attempts };
}

/** A wait's click naming a bucket no layout of its workspace has: acked, logged, and no shard created for it. */
function outsideLayouts(inbound: Inbound): Recorded {
  const { dedupeKey, workspace } = inbound;
  const bucket = waitClickOf(inbound)?.bucket;
  log("warn", "a wait's click names a bucket outside its workspace's layouts: ignored", { dedupeKey, workspace, bucket });
  return { verdict: "ignored", reason: "wait bucket outside the workspace's layouts" };
}

/**
 * A line for each listener that does not answer a late event (the app's `maxEventAgeMs`): acked
 * and not run, by policy, yet never silently — Slack's backlog after an incident shows here.
 */
function logLateEvent(inbound: Inbound, { ageMs, listeners }: LateEvent): void {
  const { dedupeKey, type, workspace, retryNum } = inbound;
  for (const { listener, maxEventAgeMs } of listeners)
    log("warn", "late event not answered", {
      event_id: dedupeKey,
      dedupeKey,
      type,
      workspace,
      retryNum,
      listener,
      eventAgeMs: ageMs,
      maxEventAgeMs,
    });
}
