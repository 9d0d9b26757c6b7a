import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";

// Issue 45 point 6: the project and the starter (examples/consumer, what `init` writes) declare their
// Durable Object classes with wrangler's declarative `exports` (changelog 2026-06-30), not the
// `[[migrations]]` list the two cannot sit beside. Read by the pinned wrangler's own reader, which
// refuses an invalid lifecycle as `wrangler deploy --dry-run` (CI) does.

const root = fileURLToPath(new URL("../..", import.meta.url));

describe.each([
  ["the project", "wrangler.toml"],
  ["the starter", "examples/consumer/wrangler.toml"],
])("%s's wrangler.toml", (_, path) => {
  it("declares every bound Durable Object class a live SQLite export, with no migrations list", () => {
    const config = unstable_readConfig({ config: `${root}${path}` });
    const classes = config.durable_objects.bindings.map((binding: { class_name: string }) => binding.class_name);
    expect(classes.length).toBeGreaterThan(0);
    for (const name of classes) expect(config.exports?.[name]).toEqual({ type: "durable-object", storage: "sqlite" });
    expect(config.migrations).toEqual([]);
  });
});
