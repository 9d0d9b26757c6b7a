import type { Inbound } from "../../inbound/types";
import type { Plan, PlannedEffect, SlackApp } from "./slackApp";

type OwnEffects = (inbound: Inbound) => PlannedEffect[];

const wrapped = new WeakMap<OwnEffects, WeakMap<SlackApp, SlackApp>>();

/**
 * `app` with effects the coordinator plans itself (the relay, installation lifecycle events) put
 * before the app's own — also for deliveries the app ignores. Pure, like any plan; one wrapper
 * per app and kind of effects, so the edge and the shard plan with the same object.
 */
export function withOwnEffects(app: SlackApp, own: OwnEffects): SlackApp {
  let byApp = wrapped.get(own);
  if (!byApp) {
    byApp = new WeakMap();
    wrapped.set(own, byApp);
  }
  let served = byApp.get(app);
  if (!served) {
    served = {
      plan(inbound: Inbound): Plan {
        const plan = app.plan(inbound);
        const effects = own(inbound);
        if (effects.length === 0) return plan;
        // Its late listeners stay named: the edge logs what the app did not answer (Plan.late).
        if ("ignore" in plan) return plan.late ? { effects, late: plan.late } : { effects };
        return { ...plan, effects: [...effects, ...plan.effects] };
      },
      run: app.run?.bind(app),
      parked: app.parked?.bind(app),
      failureNotices: app.failureNotices?.bind(app),
      loadOptions: app.loadOptions?.bind(app),
      ungrantedScopes: app.ungrantedScopes?.bind(app),
    };
    byApp.set(app, served);
  }
  return served;
}
