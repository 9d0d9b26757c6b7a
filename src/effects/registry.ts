import type { Effect } from "../app/contract";
import { UnreadableEffect } from "../platform/errors";
import { alert } from "./alert";
import { functionComplete } from "./functionComplete";
import { installation } from "./installation";
import type { DeliveryWorld, EffectKind } from "./kind";
import { relay } from "./relay";
import { responseUrl } from "./responseUrl";
import { run } from "./run";
import { slackApi } from "./slackApi";
import { streamClose } from "./streamClose";

/**
 * One kind for each `Effect` variant, under its `type`: a variant without its kind, or a kind
 * under another variant's type, does not compile.
 */
export type KindsByType = { readonly [T in Effect["type"]]: EffectKind<Extract<Effect, { type: T }>, unknown> };

/** Every effect kind this build performs: a new kind is its file and one entry here (docs/contributing.md). */
export const KINDS_BY_TYPE: KindsByType = {
  "slack.api": slackApi,
  response_url: responseUrl,
  run,
  installation,
  relay,
  alert,
  "function.complete": functionComplete,
  "stream.close": streamClose,
};
const KINDS: readonly EffectKind<Effect, unknown>[] = Object.values(KINDS_BY_TYPE);

const BY_TYPE: ReadonlyMap<string, EffectKind<Effect, unknown>> = new Map(KINDS.map((kind) => [kind.type, kind]));

/** An effect kind with the dependencies it drew from a shard's delivery world. */
export interface ReadyKind {
  kind: EffectKind<Effect, unknown>;
  deps: unknown;
}

/** The ready kind that performs an effect; UnreadableEffect (parked) for a type this build does not know. */
export type ReadyKinds = (effect: Effect) => ReadyKind;

/**
 * Every kind with its own dependencies, drawn from `world` once per shard — the courier looks a
 * row's kind up here, so no row builds them. Throws what a kind's `deps` throws (InvalidSetting).
 */
export function readyKinds(world: DeliveryWorld): ReadyKinds {
  const ready = new Map(KINDS.map((kind) => [kind.type, { kind, deps: kind.deps?.(world) }]));
  return (effect) => known(ready, effect);
}

/** The kind that performs `effect`; UnreadableEffect (parked) for a type this build does not know. */
export function kindOf(effect: Effect): EffectKind<Effect, unknown> {
  return known(BY_TYPE, effect);
}

function known<T>(byType: ReadonlyMap<string, T>, effect: Effect): T {
  const found = byType.get(effect.type);
  if (found === undefined) throw new UnreadableEffect(`no effect kind "${String(effect.type)}" in this build`);
  return found;
}

/** The rate key of an effect, stored on its row so the sweep need not parse payloads. */
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
