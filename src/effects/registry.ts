import { UnreadableEffect } from "../errors";
import { alert } from "./alert";
import { installation } from "./installation";
import type { EffectKind } from "./kind";
import { relay } from "./relay";
import { responseUrl } from "./responseUrl";
import { run } from "./run";
import { slackApi } from "./slackApi";
import type { Effect } from "./types";

/** Every effect kind this build performs, looked up by `type`. */
const KINDS: ReadonlyMap<string, EffectKind> = new Map(
  ([slackApi, responseUrl, run, installation, relay, alert] as EffectKind[]).map((kind) => [kind.type, kind]),
);

/** The kind that performs `effect`; UnreadableEffect (parked) for a type this build does not know. */
export function kindOf(effect: Effect): EffectKind {
  const kind = KINDS.get(effect.type);
  if (!kind) throw new UnreadableEffect(`no effect kind "${String(effect.type)}" in this build`);
  return kind;
}

/** The rate-limit bucket of an effect, stored on its row so the sweep need not parse payloads. */
export function rateKeyOf(effect: Effect): string | null {
  return kindOf(effect).rateKey?.(effect) ?? null;
}

/** Reads a stored effect back; a payload that is not an effect is UnreadableEffect (parked). */
export function readEffect(payload: string): Effect {
  let effect: unknown;
  try {
    effect = JSON.parse(payload);
  } catch (error) {
    throw new UnreadableEffect(
      `stored effect is not JSON: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300),
    );
  }
  if (typeof effect !== "object" || effect === null || typeof (effect as { type?: unknown }).type !== "string") {
    throw new UnreadableEffect("stored effect has no type");
  }
  return effect as Effect;
}
