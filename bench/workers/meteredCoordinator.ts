import * as product from "product:src/index.ts";
import { statementCosts } from "./statementMeter";

// The coordinator as deployed, plus one bench-only route that reports rows written per SQL
// statement (shards and installations run in the Worker's isolate under workerd, so they share
// the tally).
export const { Shard } = product;
// OAuth mode's store; undefined when PRODUCT_ROOT is a build from before it (then never bound).
export const Installations = (product as Record<string, unknown>).Installations;
const worker = product.default;

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/bench/statements") return Response.json(statementCosts());
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Parameters<typeof worker.fetch>[1]>;
