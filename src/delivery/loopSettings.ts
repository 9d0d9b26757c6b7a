import type { CoordinatorEnv } from "../rpc/env";
import { type DeliverySettings, deliverySettings } from "../settings";

/**
 * A delivery loop's settings, parsed once before its parts are built (they read theirs there), or
 * why not: a bad one pauses delivery (deliveryLoop.ts). The watch sends no relays: a bad relay
 * setting (which makes the edge answer 500) must not also stop the alert about it.
 */
export function loopSettings(
  role: "workspace" | "watch",
  env: CoordinatorEnv,
): { settings: DeliverySettings; problem?: undefined } | { settings: null; problem: unknown } {
  const { RELAY_URL: _, ...withoutRelay } = env;
  try {
    return { settings: deliverySettings(role === "watch" ? withoutRelay : env) };
  } catch (problem) {
    return { settings: null, problem };
  }
}
