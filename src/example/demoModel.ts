import type { LanguageModelV4 } from "@ai-sdk/provider";
import { createWorkersAI } from "workers-ai-provider";
import type { RunLogger } from "../lib";
import { COUNTING_INTERVAL_MS, countingModel } from "./countingModel";

/** The Workers AI model `DEMO_MODEL=workers-ai` answers with, unless `DEMO_WORKERS_AI_MODEL` names another. */
export const WORKERS_AI_MODEL = "@cf/meta/llama-3.1-8b-instruct";

/**
 * The demo's model, chosen by its settings: the counting model (the default: deterministic, no
 * network, `DEMO_COUNT_INTERVAL_MS` a number), or with `DEMO_MODEL=workers-ai` Workers AI through
 * its AI SDK provider and the Worker's `AI` binding. Asked for Workers AI without the binding, it
 * says so in a log line and counts instead.
 */
export function demoModel(env: Record<string, unknown>, logger: Pick<RunLogger, "warn">): LanguageModelV4 {
  const counting = () => countingModel(Number(env.DEMO_COUNT_INTERVAL_MS ?? COUNTING_INTERVAL_MS));
  if (env.DEMO_MODEL === undefined || env.DEMO_MODEL === "counting") return counting();
  if (env.DEMO_MODEL !== "workers-ai") {
    logger.warn(`DEMO_MODEL=${String(env.DEMO_MODEL)} is not a demo model (counting, workers-ai): the demo counts`);
    return counting();
  }
  if (!env.AI) {
    logger.warn(
      'DEMO_MODEL=workers-ai, but the Worker has no AI binding: the demo counts instead. Add `[ai] binding = "AI"` to wrangler.toml (docs/guides/ai-agent.md "With the AI SDK")',
    );
    return counting();
  }
  const modelId = typeof env.DEMO_WORKERS_AI_MODEL === "string" ? env.DEMO_WORKERS_AI_MODEL : WORKERS_AI_MODEL;
  return createWorkersAI({ binding: env.AI as Ai })(modelId as never);
}
