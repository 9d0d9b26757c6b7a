import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { repoRoot as root } from "./repoRoot";

/** The Workers scripts/build-bench.mjs bundles; each is measured under the same runtime. */
export type WorkerKind =
  | "coordinator"
  | "coordinatorMetered"
  | "coordinatorIngestOnly"
  | "coordinatorStreams"
  | "coordinatorBacklog"
  | "coordinatorBaseline"
  | "floor"
  | "slackEdge"
  | "seedD1";

export interface RuntimeOptions {
  worker: WorkerKind;
  port: number;
  /** Env vars (settings and secrets) as the Worker reads them. */
  bindings: Record<string, string>;
  /** Binds the installation store (OAuth mode; the "coordinator" build only). */
  installations?: boolean;
  /** Where Durable Object state persists across restarts; a fresh temp dir when omitted. */
  persistTo?: string;
  /** Route outbound fetches through bench/workers/loopbackGuard.ts (default true). */
  outboundGuard?: boolean;
  /** Every line the Worker logs (console.*), e.g. to count or keep them; dropped when omitted. */
  onLog?: (level: string, message: string) => void;
  /** Opens V8's inspector on 127.0.0.1:`inspectorPort` (for a CPU profile of the Worker and its shards). */
  inspectorPort?: number;
}

export interface Runtime {
  url: URL;
  /** Fires the Worker's scheduled handler once, as its Cron Trigger would at `at` (the seed design's sweep). */
  scheduled(at: Date): Promise<void>;
  stop(): Promise<void>;
}

/** The compatibility date the product deploys with, so every Worker runs under the same one. */
function compatibilityDate(): string {
  const toml = readFileSync(resolve(root, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  if (!date) throw new Error("compatibility_date not found in wrangler.toml");
  return date;
}

/**
 * Starts one Worker directly in workerd through Miniflare's API (no `wrangler dev` proxy), on
 * 127.0.0.1:`port`. Outbound fetches pass bench/workers/loopbackGuard.ts: nothing measured can call Slack.
 */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  // Every coordinator build (as deployed, metered, ingest-only) binds its shard class.
  const hasShard = options.worker.startsWith("coordinator");
  const bundle = (name: string) => resolve(root, "bench/.build/workers", `${name}.mjs`);
  // Miniflare 5 takes a new options shape; its converter accepts the documented v4 one.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: options.port,
      ...(options.persistTo ? { resourcePersistencePath: options.persistTo } : {}),
      telemetry: { enabled: false },
      ...(options.inspectorPort ? { inspectorPort: options.inspectorPort } : {}),
      logRequests: false,
      handleStructuredLogs: ({ level, message }) => options.onLog?.(level, message),
      workers: [
        {
          name: options.worker,
          modules: true,
          scriptPath: bundle(options.worker),
          compatibilityDate: compatibilityDate(),
          bindings: options.bindings,
          ...(hasShard
            ? {
                durableObjects: {
                  SHARD: { className: "Shard", useSQLite: true },
                  // OAuth mode's store, bound only when asked: older product builds lack the class.
                  ...(options.installations ? { INSTALLATIONS: { className: "Installations", useSQLite: true } } : {}),
                },
              }
            : {}),
          // The seeds' design keeps its receipts and outbox in a local D1 database.
          ...(options.worker === "seedD1" ? { d1Databases: ["DB"] } : {}),
          ...(options.outboundGuard === false ? {} : { outboundService: "loopbackGuard" }),
        },
        { name: "loopbackGuard", modules: true, scriptPath: bundle("loopbackGuard"), compatibilityDate: compatibilityDate() },
      ],
    }),
  );
  const url = await mf.ready;
  const scheduled = async (at: Date) => {
    const worker = await mf.getWorker(options.worker);
    const result = await worker.scheduled({ scheduledTime: at, cron: "* * * * *" });
    if (result.outcome !== "ok") throw new Error(`scheduled handler of ${options.worker}: ${result.outcome}`);
  };
  return { url, scheduled, stop: () => mf.dispose() };
}
