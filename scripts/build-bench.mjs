// `npm run bench` / `npm run chaos` helper: bundles the measurement harness (Node) and the
// Workers it measures (workerd) with esbuild, into bench/.build/. Plain JS: it runs before
// anything is built. PRODUCT_ROOT=<dir> measures another checkout's src/ and migrations/.

import { resolve } from "node:path";
import { build } from "esbuild";
import { textLoaders, textScripts } from "./textAssets.mjs";

const here = resolve(import.meta.dirname, "..");
const product = resolve(process.env.PRODUCT_ROOT ?? here);
const out = resolve(here, "bench/.build");

/** The bench swaps the shards' and installations' SQL door for one that meters each statement (bench/workers/statementMeter.ts). */
const meterStatements = {
  name: "meter-statements",
  setup(b) {
    b.onResolve({ filter: /\/meteredSql$/ }, (args) =>
      // src/platform/sql/ now; src/shard/ and src/installations/ in a PRODUCT_ROOT checkout from before the move.
      ["/src/platform/sql/", "/src/shard/", "/src/installations/"].some((dir) => args.importer.includes(dir))
        ? { path: resolve(here, "bench/workers/meteredSqlByStatement.ts") }
        : undefined,
    );
  },
};

/** Lets bench/workers/*.ts import the product from PRODUCT_ROOT as `product:src/...`. */
const productImports = {
  name: "product-root",
  setup(b) {
    b.onResolve({ filter: /^product:/ }, (args) => ({ path: resolve(product, args.path.slice("product:".length)) }));
  },
};

const workerOptions = {
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2024",
  conditions: ["workerd", "worker", "browser"],
  mainFields: ["module", "main"],
  external: ["cloudflare:*", "node:*"],
  loader: textLoaders,
  logLevel: "warning",
  plugins: [productImports, textScripts],
};

/** `npm run compare -- --baseline <checkout>`: that checkout's coordinator, built beside this one's. */
const at = process.argv.indexOf("--baseline");
const baseline = at >= 0 ? resolve(process.argv[at + 1] ?? "") : undefined;

await Promise.all([
  ...(baseline
    ? [
        build({
          ...workerOptions,
          entryPoints: { coordinatorBaseline: resolve(baseline, "src/index.ts") },
          // A bare checkout (no npm install of its own) builds with this one's packages.
          nodePaths: [resolve(here, "node_modules")],
          outdir: resolve(out, "workers"),
          outExtension: { ".js": ".mjs" },
        }),
      ]
    : []),
  build({
    ...workerOptions,
    entryPoints: {
      coordinator: resolve(product, "src/index.ts"),
      coordinatorIngestOnly: resolve(here, "bench/workers/coordinatorIngestOnly.ts"),
      coordinatorStreams: resolve(here, "bench/workers/coordinatorStreams.ts"),
      coordinatorBacklog: resolve(here, "bench/workers/backlogCoordinator.ts"),
      floor: resolve(here, "bench/workers/floor.ts"),
      slackEdge: resolve(here, "bench/workers/slackEdge.ts"),
      seedD1: resolve(here, "bench/workers/seedD1.ts"),
      loopbackGuard: resolve(here, "bench/workers/loopbackGuard.ts"),
    },
    outdir: resolve(out, "workers"),
    outExtension: { ".js": ".mjs" },
  }),
  // The per-statement meter subclasses src/platform/sql/meteredSql.ts; should that class change shape,
  // the bench still runs (without the breakdown) rather than failing.
  build({
    ...workerOptions,
    entryPoints: { coordinatorMetered: resolve(here, "bench/workers/meteredCoordinator.ts") },
    outdir: resolve(out, "workers"),
    outExtension: { ".js": ".mjs" },
    plugins: [productImports, meterStatements, textScripts],
  }).catch((error) => {
    console.warn(
      `build-bench: per-statement metering unavailable (${error.message.split("\n")[0]}); rows per event are still measured`,
    );
    return build({
      ...workerOptions,
      entryPoints: { coordinatorMetered: resolve(here, "bench/workers/meteredCoordinator.ts") },
      outdir: resolve(out, "workers"),
      outExtension: { ".js": ".mjs" },
    });
  }),
  build({
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
    entryPoints: {
      bench: resolve(here, "bench/bench.ts"),
      chaos: resolve(here, "bench/chaos.ts"),
      profile: resolve(here, "bench/profile.ts"),
      compare: resolve(here, "bench/compare.ts"),
      capacity: resolve(here, "bench/capacity.ts"),
      commitCost: resolve(here, "bench/commitCost.ts"),
      installClicks: resolve(here, "bench/installClicks.ts"),
      stalls: resolve(here, "bench/stalls.ts"),
      soak: resolve(here, "bench/soak.ts"),
      spread: resolve(here, "bench/spread.ts"),
      runtimeProcess: resolve(here, "bench/runtime/runtimeProcess.ts"),
      loadProcess: resolve(here, "bench/load/loadProcess.ts"),
      fakeSlack: resolve(here, "bench/fakeSlack/serve.ts"),
    },
    outdir: resolve(out, "node"),
    outExtension: { ".js": ".mjs" },
    plugins: [productImports],
  }),
]);
