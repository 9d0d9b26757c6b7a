import worker, { Shard } from "product:src/index.ts";
import { statementCosts } from "./statementMeter";

// The coordinator as deployed, plus one bench-only route that reports rows written per SQL
// statement (shards run in the Worker's isolate under workerd, so they share the tally).
export { Shard };

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/bench/statements") return Response.json(statementCosts());
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Parameters<typeof worker.fetch>[1]>;
