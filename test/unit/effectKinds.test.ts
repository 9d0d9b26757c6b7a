import { describe, expect, it } from "vitest";
import type { Effect } from "../../src/app/contract";
import { KINDS_BY_TYPE, type KindsByType, kindOf } from "../../src/effects/registry";
import { slackApi } from "../../src/effects/slackApi";

// The registry's kinds are typed by the Effect union (`npm run typecheck` checks this file): every
// variant has its kind under its type, or the build does not compile.
const { "stream.close": closeKind, ...withoutClose } = KINDS_BY_TYPE;

// @ts-expect-error — `stream.close` has no kind: a variant without its kind does not compile.
const missing: KindsByType = withoutClose;

// @ts-expect-error — a kind under another variant's type does not compile.
const misfiled: KindsByType = { ...KINDS_BY_TYPE, "stream.close": slackApi };

describe("the effect registry", () => {
  it("performs each Effect variant by the kind under its type", () => {
    const types = Object.keys(KINDS_BY_TYPE);
    expect(types).toEqual([
      "slack.api",
      "response_url",
      "run",
      "installation",
      "relay",
      "alert",
      "function.complete",
      "stream.close",
    ]);
    for (const type of types) expect(kindOf({ type } as Effect)).toBe(KINDS_BY_TYPE[type as Effect["type"]]);
  });

  it("the two maps the compiler refuses are what they say", () => {
    expect(Object.keys(missing)).not.toContain("stream.close");
    expect(closeKind.type).toBe("stream.close");
    expect(misfiled["stream.close"]).toBe(slackApi);
  });
});
