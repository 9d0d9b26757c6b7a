import type { Inbound } from "../../inbound/types";
import type { PlannedEffect } from "./slackApp";

/** The idempotency key of a planned effect: per delivery, or per message fact when asked and known. */
export function outboxKeyOf(
  inbound: Pick<Inbound, "dedupeKey" | "factKey">,
  planned: Pick<PlannedEffect, "name" | "scope">,
): string {
  const scope = planned.scope === "fact" && inbound.factKey ? inbound.factKey : inbound.dedupeKey;
  return `${scope}:${planned.name}`;
}
