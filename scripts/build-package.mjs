// `npm run build`: the library as a consumer installs it (also run by `npm pack` via prepack).
// - dist/index.js: one ES module bundled by esbuild from src/lib.ts. The migrations and the
//   console's assets are inlined as text, so a consumer's wrangler needs no rule for them; `cloudflare:*` and
//   itty-router are left to the consumer's bundler (wrangler), as a dependency is.
// - dist/testing.js: the test kit, `slack-durable-coordinator/testing`, bundled from src/testing/index.ts.
// - dist/types/: declarations from tsc (tsconfig.build.json), entries dist/types/lib.d.ts and testing/index.d.ts.
// - dist/starter/: examples/consumer as committed (no node_modules, local state or lock file),
//   what `npx slack-durable-coordinator init <dir>` (bin/coordinator.mjs) writes.
// Bundling rather than emitting a file per module: the consumer gets one module to resolve,
// and the .sql imports never reach them. esbuild is already what wrangler itself bundles with.
import { execFileSync } from "node:child_process";
import { cpSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";
import { textLoaders, textScripts } from "./textAssets.mjs";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });

const bundle = (entry, outfile) =>
  build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    sourcemap: true,
    external: ["cloudflare:*", "itty-router"],
    loader: textLoaders,
    plugins: [textScripts],
    logLevel: "warning",
  });
await bundle("src/lib.ts", "dist/index.js");
// The test kit (`slack-durable-coordinator/testing`): plain Web APIs, loads in workerd and Node.
await bundle("src/testing/index.ts", "dist/testing.js");
execFileSync(join(root, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
// worker-configuration.d.ts (for `*.sql` modules) pulls in the demo Worker; it is not part of the library.
rmSync(join(dist, "types/index.d.ts"), { force: true });
rmSync(join(dist, "types/example"), { recursive: true, force: true });

// The starter a user begins from: the example project that check:package installs and tests.
cpSync(join(root, "examples/consumer"), join(dist, "starter"), {
  recursive: true,
  filter: (path) => !/[/\\](node_modules|\.wrangler|\.dev\.vars|package-lock\.json)$/.test(path),
});

const kib = (path) => `${(statSync(join(root, path)).size / 1024).toFixed(1)} KiB`;
console.error(
  `build: dist/index.js ${kib("dist/index.js")}, dist/testing.js ${kib("dist/testing.js")}, declarations in dist/types/ (entries lib.d.ts, testing/index.d.ts), dist/starter/ (examples/consumer)`,
);
