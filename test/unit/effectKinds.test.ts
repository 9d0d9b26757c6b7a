import { describe, expect, it } from "vitest";
import type { Effect } from "../../src/app/contract";
import { alert } from "../../src/effects/alert";
import { functionComplete } from "../../src/effects/functionComplete";
import { installation } from "../../src/effects/installation";
import { type KindsByType, kindOf } from "../../src/effects/registry";
import { relay } from "../../src/effects/relay";
import { responseUrl } from "../../src/effects/responseUrl";
import { run } from "../../src/effects/run";
import { slackApi } from "../../src/effects/slackApi";
import { streamClose } from "../../src/effects/streamClose";

// The registry's KINDS is typed by the Effect union (`npm run typecheck` checks this file): every
// variant has its kind under its type, or the build does not compile.
const every: KindsByType = {
  "slack.api": slackApi,
  response_url: responseUrl,
  run,
  installation,
  relay,
  alert,
  "function.complete": functionComplete,
  "stream.close": streamClose,
};

// @ts-expect-error — `stream.close` has no kind: a variant without its kind does not compile.
const missing: KindsByType = {
  "slack.api": slackApi,
  response_url: responseUrl,
  run,
  installation,
  relay,
  alert,
  "function.complete": functionComplete,
};

// @ts-expect-error — a kind under another variant's type does not compile.
const misfiled: KindsByType = { ...every, "stream.close": slackApi };

describe("the effect registry", () => {
  it("performs each Effect variant by the kind under its type", () => {
    for (const [type, kind] of Object.entries(every)) expect(kindOf({ type } as Effect)).toBe(kind);
    expect(Object.keys(every)).toHaveLength(8);
  });

  it("the two maps the compiler refuses are what they say", () => {
    expect(Object.keys(missing)).not.toContain("stream.close");
    expect(misfiled["stream.close"]).toBe(slackApi);
  });
});
