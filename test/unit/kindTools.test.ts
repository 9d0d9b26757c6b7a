import { describe, expect, it } from "vitest";
import type { Step } from "../../src/app/contract";
import { KIND_TOOLS, type KindToolBuilders } from "../../src/app/run/runArgs";
import type { SlackWebClient } from "../../src/slack/client";
import { appMention } from "../../src/testing/deliveries";
import { eventDelivery } from "../support/inboundOf";
import { ENTITY_DETAILS_REQUESTED_EXAMPLE } from "../support/workObjectPayloads";

// A listener kind's run tools are named in `KindTools` (app/listeners/listeners.ts) and built by
// `KIND_TOOLS` (app/run/runArgs.ts); `npm run typecheck` checks this file: a kind without its
// builder, or with another kind's, does not compile.
const { entityDetails: presentBuilder, ...withoutEntityDetails } = KIND_TOOLS;

// @ts-expect-error — `entityDetails` has no builder: a kind's tools never built do not compile.
const missing: KindToolBuilders = withoutEntityDetails;

// @ts-expect-error — a builder of another kind's tools under `entityDetails` does not compile.
const misfiled: KindToolBuilders = { ...KIND_TOOLS, entityDetails: KIND_TOOLS.function };

const client = {} as SlackWebClient;
const step: Step = async (_name, fn) => fn();

describe("each listener kind's run tools", () => {
  it("a kind's run gets its own tools; another kind's run gets none of them", () => {
    const flexpane = eventDelivery("T1", { ...ENTITY_DETAILS_REQUESTED_EXAMPLE });
    const mention = eventDelivery("T1", appMention());
    expect(Object.keys(presentBuilder(flexpane, client, step))).toEqual(["presentDetails"]);
    expect(Object.keys(presentBuilder(mention, client, step))).toEqual([]);
    expect(Object.keys(KIND_TOOLS.function(mention, client, step))).toEqual([]);
  });

  it("the two maps the compiler refuses are what they say", () => {
    expect(Object.keys(missing)).not.toContain("entityDetails");
    expect(Object.keys(missing)).toContain("function");
    expect(misfiled.entityDetails).toBe(KIND_TOOLS.function);
  });
});
