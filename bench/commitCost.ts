import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { cpuMsOf, descendantsOf } from "./runtime/processCpu";
import { repoRoot } from "./runtime/repoRoot";
import { median } from "./scenarios/interleaved";

// `npm run commit-cost`: what a Durable Object's SQLite write costs in CPU in the local workerd,
// split into the statement and the commit that ends each turn that wrote. A Durable Object runs
// TURNS turns, each a tick of the event loop; per turn it writes nothing, one row, two rows, or
// (every tenth turn) ten rows, or one row inside transactionSync. The workerd process's CPU time
// (from /proc) per turn tells what a turn's writing costs from what a statement costs. No network, bounded, stops by itself.
const TURNS = 3000;
const ROUNDS = 3;
killDescendantsOnExit();
watchdog(5 * 60_000, "npm run commit-cost");

const SCRIPT = `
import { DurableObject } from "cloudflare:workers";
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
export class Turns extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID");
  }
  async run(mode, turns, bytes) {
    const sql = this.ctx.storage.sql;
    const value = "x".repeat(bytes);
    const base = crypto.randomUUID();
    const insert = (key) => sql.exec("INSERT INTO t VALUES (?, ?)", key, value);
    for (let i = 0; i < turns; i++) {
      if (mode === "one") insert(base + i);
      else if (mode === "two") { insert(base + i); insert(base + "b" + i); }
      else if (mode === "transaction") this.ctx.storage.transactionSync(() => insert(base + i));
      else if (mode === "ten") { insert(base + i); if (i % 10 !== 9) continue; }
      await tick();
    }
    return turns;
  }
}
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const stub = env.TURNS.get(env.TURNS.idFromName("turns"));
    const done = await stub.run(url.searchParams.get("mode"), Number(url.searchParams.get("turns")), Number(url.searchParams.get("bytes")));
    return new Response(String(done));
  },
};`;

const toml = readFileSync(resolve(repoRoot, "wrangler.toml"), "utf8");
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? "2025-04-01";
const before = new Set(descendantsOf(process.pid));
const mf = new Miniflare(
  convertV4MiniflareOptions({
    host: "127.0.0.1",
    workers: [
      {
        name: "commit-cost",
        modules: true,
        script: SCRIPT,
        compatibilityDate,
        durableObjects: { TURNS: { className: "Turns", useSQLite: true } },
      },
    ],
  }),
);
try {
  await mf.ready;
  const pids = descendantsOf(process.pid).filter((pid) => !before.has(pid));
  const cpu = () => pids.reduce((sum, pid) => sum + (cpuMsOf(pid) || 0), 0);
  const modes = [
    ["tick", "a tick, no write"],
    ["one", "one INSERT, one commit"],
    ["two", "two INSERTs, one commit"],
    ["transaction", "one INSERT in transactionSync"],
    ["ten", "ten INSERTs every tenth turn"],
  ] as const;
  const perTurn = new Map<string, number[]>();
  console.log(`commit-cost: ${TURNS} turns per mode, ${ROUNDS} rounds, rows of 1,500 bytes`);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [mode] of modes) {
      const start = cpu();
      const answer = await (await mf.dispatchFetch(`http://commit-cost/?mode=${mode}&turns=${TURNS}&bytes=1500`)).text();
      if (answer !== String(TURNS)) throw new Error(`mode ${mode} answered ${answer.slice(0, 200)}`);
      perTurn.set(mode, [...(perTurn.get(mode) ?? []), ((cpu() - start) * 1000) / TURNS]);
    }
    process.stdout.write(`  round ${round}/${ROUNDS} done\n`);
  }
  console.log("\nworkerd CPU per turn, µs (rounds, then the median):");
  for (const [mode, label] of modes) {
    // "ten" writes one row per turn on average, with a commit every tenth turn.
    const values = perTurn.get(mode) ?? [];
    console.log(
      `  ${label.padEnd(34)} ${values.map((v) => v.toFixed(0).padStart(4)).join(" ")}  → ${median(values)?.toFixed(0) ?? "–"}`,
    );
  }
  const medianOf = (mode: string) => median(perTurn.get(mode) ?? []) ?? Number.NaN;
  const tick = medianOf("tick");
  const one = medianOf("one") - tick;
  const two = medianOf("two") - tick;
  console.log(
    `\nso: a turn that writes costs ≈ ${one.toFixed(0)} µs more than one that does not; a second statement in it adds ≈ ${(two - one).toFixed(0)} µs`,
  );
  console.log("(CPU readings are in 10 ms ticks over a few hundred ms per mode: read differences of tens of µs as noise)");
} finally {
  await mf.dispose();
}
