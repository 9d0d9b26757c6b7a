import type { Inbound } from "../inbound/types";
import { type Assistant, type AssistantConfig, assistantListeners } from "./assistant";
import type { AckBody, EnvBindings, OptionsLoadWorld, Plan, PlannedEffect, RunEffect, RunTools, SlackApp } from "./contract";
import { functionMatch, functionParked } from "./functions";
import {
  type ActionArgs,
  type AppOptions,
  actionRegistration,
  type BlockAction,
  type CommandArgs,
  commandMatch,
  describeMatcher,
  type ErrorHandler,
  type EventArgs,
  type EventOf,
  type EventType,
  type EventWithSubtypesOf,
  errorFollowUps,
  eventMatch,
  type FunctionArgs,
  failureNoticesOf,
  type Listener,
  type ListenerSpec,
  type Matched,
  type Matcher,
  type MessageArgs,
  messageMatch,
  type OptionsConstraint,
  type OptionsListener,
  optionsLoaderFor,
  optionsRegistration,
  type PlanOptions,
  planOf,
  planOptionsOf,
  type Registered,
  registeredName,
  type ShortcutArgs,
  shortcutMatch,
  specOf,
  type ViewArgs,
  viewRegistration,
} from "./listeners";
import * as slackManifest from "./manifest";
import { loadOptionsWith, runRegistered } from "./run";
import { type EntityDetailsArgs, entityDetailsMatch } from "./workObjects";

/** Follow-ups of a parked run, planned purely (SlackApp.parked). */
type ParkContributor = NonNullable<SlackApp["parked"]>;

export type { AppOptions };

/** A listener as its overload typed it; `never` accepts every kind's listener. */
type AnyListener = Listener<never, never>;

/** Listeners that set `subtypes` also get the subtyped members of the event's union. */
type WithSubtypes<C, Env> = ListenerSpec<C, Env> & { subtypes: readonly string[] | "all" };

/**
 * Bolt-style listeners with a durability guarantee Bolt does not have: `ack` is given inside the ingest transaction,
 * `run` happens after the ack from the outbox — retried, resumable through `step()`. Compose it with `createCoordinator({ app })`.
 * `Env`: the Worker's env as listeners see it (`new App<Env>()`, with the `Env` that `wrangler types` writes).
 */
export class App<Env = EnvBindings> implements SlackApp<Env> {
  private readonly listeners: Registered[] = [];
  /** What each listener needs of the app's manifest, by its name. */
  private readonly needs: slackManifest.NamedNeeds[] = [];
  private readonly declared: slackManifest.AppManifestDeclaration;
  private readonly filters: PlanOptions;
  /** Each kind's follow-ups of a parked run (app.error, a custom step's completeError). */
  private readonly parkContributors: ParkContributor[] = [];
  private errorHandler?: ErrorHandler;

  constructor(private readonly appOptions: AppOptions = {}) {
    this.filters = planOptionsOf(appOptions);
    this.declared = appOptions.manifest ?? {};
    // A custom step whose run is finally parked tells Slack it failed: its workflow must not hang.
    this.onParked(functionParked);
  }

  /**
   * Events API events of `type` (`app_mention`, `reaction_added`, …), or of any of several
   * types — with `dedupe: "fact"`, one message seen as both `message` and `app_mention` runs once.
   */
  event<T extends EventType>(type: T | readonly T[], listener: WithSubtypes<EventArgs<EventWithSubtypesOf<T>>, Env>): this;
  event<T extends EventType>(type: T | readonly T[], listener: Listener<EventArgs<EventOf<T>>, Env>): this;
  event(type: string | readonly string[], listener: AnyListener): this {
    const types = typeof type === "string" ? [type] : type;
    return this.register(`event:${types.join("+")}`, listener, eventMatch(types), slackManifest.eventNeeds(types));
  }

  /**
   * `message` events whose text contains `pattern` (a string) or matches it (a RegExp, whose
   * match is `context.matches`); all when omitted.
   */
  message(pattern: RegExp, listener: WithSubtypes<MessageArgs<EventWithSubtypesOf<"message">> & Matched, Env>): this;
  message(pattern: RegExp, listener: Listener<MessageArgs<EventOf<"message">> & Matched, Env>): this;
  message(pattern: Matcher | undefined, listener: WithSubtypes<MessageArgs<EventWithSubtypesOf<"message">>, Env>): this;
  message(pattern: Matcher | undefined, listener: Listener<MessageArgs<EventOf<"message">>, Env>): this;
  message(listener: WithSubtypes<MessageArgs<EventWithSubtypesOf<"message">>, Env>): this;
  message(listener: Listener<MessageArgs<EventOf<"message">>, Env>): this;
  message(patternOrListener: Matcher | AnyListener | undefined, maybeListener?: AnyListener): this {
    const [pattern, listener] =
      maybeListener === undefined && !(typeof patternOrListener === "string" || patternOrListener instanceof RegExp)
        ? [undefined, patternOrListener as AnyListener]
        : [patternOrListener as Matcher | undefined, maybeListener!];
    const needs = slackManifest.eventNeeds(["message"]);
    return this.register(`message:${describeMatcher(pattern)}`, listener, messageMatch(pattern), needs);
  }

  /** A slash command, e.g. `"/echo"`; its manifest entry (`description`, `usage_hint`) may be declared first. */
  command(name: Matcher, listener: Listener<CommandArgs, Env>): this;
  command(name: Matcher, declaration: slackManifest.CommandDeclaration, listener: Listener<CommandArgs, Env>): this;
  command(name: Matcher, first: unknown, second?: AnyListener): this {
    const [declaration, listener] = slackManifest.declarationAnd<slackManifest.CommandDeclaration, AnyListener>(first, second);
    const needs = slackManifest.commandNeeds(name, declaration);
    return this.register(`command:${describeMatcher(name)}`, listener, commandMatch(name), needs);
  }

  /** block_actions whose action matches `action_id` (or `{ action_id, block_id }`); `app.action<BlockAction>` as Bolt's. */
  action<B extends BlockAction = BlockAction>(
    constraint: OptionsConstraint,
    listener: Listener<ActionArgs & { body: B }, Env>,
  ): this {
    const [name, match] = actionRegistration(constraint);
    return this.register(name, listener, match, { interactivity: true });
  }

  /** view_submission (default) or view_closed of views with this `callback_id`. */
  view(
    constraint: Matcher | { callback_id: Matcher; type?: "view_submission" | "view_closed" },
    listener: Listener<ViewArgs, Env>,
  ): this {
    const [name, match] = viewRegistration(constraint);
    return this.register(name, listener, match, { interactivity: true });
  }

  /**
   * Options loads (`block_suggestion`) of an external select, answered at the edge: `{ ack }` acks
   * them purely; Bolt's `async ({ options, ack }) => …` may read first (app/listeners/optionsLoads.ts).
   */
  options(constraint: OptionsConstraint, listener: OptionsListener<Env>): this {
    return this.register(...optionsRegistration(constraint, listener), { options: true });
  }

  /** Global and message shortcuts (`message_action`) with this `callback_id`; its manifest entry may be declared first. */
  shortcut(callbackId: Matcher, listener: Listener<ShortcutArgs, Env>): this;
  shortcut(callbackId: Matcher, declaration: slackManifest.ShortcutDeclaration, listener: Listener<ShortcutArgs, Env>): this;
  shortcut(callbackId: Matcher, first: unknown, second?: AnyListener): this {
    const [declaration, listener] = slackManifest.declarationAnd<slackManifest.ShortcutDeclaration, AnyListener>(first, second);
    const needs = slackManifest.shortcutNeeds(callbackId, declaration);
    return this.register(`shortcut:${describeMatcher(callbackId)}`, listener, shortcutMatch(callbackId), needs);
  }

  /** Bolt's Assistant or its config: each handler a durable run in the assistant thread (app/assistant/assistant.ts). */
  assistant(assistant: AssistantConfig<Env> | Assistant<Env>, declaration?: slackManifest.AssistantDeclaration): this {
    return assistantListeners(assistant).reduce(
      (app, { name, spec, match }) => app.register(name, spec, match, slackManifest.assistantNeeds(name, declaration)),
      this,
    );
  }

  /** Work Objects: `entity_details_requested`, a flexpane opened; the run's `presentDetails` answers it on its trigger. */
  entityDetails(listener: Listener<EntityDetailsArgs, Env>, declaration?: slackManifest.EntityDetailsDeclaration): this {
    return this.register("entityDetails", listener, entityDetailsMatch, slackManifest.entityDetailsNeeds(declaration));
  }

  /**
   * A custom workflow step: `function_executed` of the app's function `callbackId`; its run gets
   * `inputs`, `complete`, `fail`. Its manifest entry (`title`, `input_parameters`, …) may be declared before the listener.
   */
  function(callbackId: Matcher, listener: Listener<FunctionArgs, Env>): this;
  function(callbackId: Matcher, declaration: slackManifest.FunctionDeclaration, listener: Listener<FunctionArgs, Env>): this;
  function(callbackId: Matcher, first: unknown, second?: AnyListener): this {
    const [declaration, listener] = slackManifest.declarationAnd<slackManifest.FunctionDeclaration, AnyListener>(first, second);
    const needs = slackManifest.functionNeeds(callbackId, declaration);
    return this.register(`function:${describeMatcher(callbackId)}`, listener, functionMatch(callbackId), needs);
  }

  /** The Slack app manifest these registrations need, for a Worker at `options.url` (app/manifest/appManifest.ts). */
  manifest(options: slackManifest.ManifestOptions): slackManifest.AppManifest {
    return slackManifest.appManifest(this.needs, this.declared, options);
  }

  /** The optional scopes the listener named `listener` needs that a workspace's `granted` lacks (app/manifest/optionalScopes.ts). */
  ungrantedScopes(listener: string, granted: readonly string[]): string[] {
    return slackManifest.ungrantedScopes(this.needs, listener, this.declared, granted);
  }

  /** The registered listeners `manifest` (the app's as deployed) leaves unreachable: Slack would never call them. */
  unsubscribed(manifest: slackManifest.AppManifest): string[] {
    return slackManifest.unsubscribedListeners(this.needs, manifest);
  }

  plan(inbound: Inbound): Plan {
    return planOf(inbound, this.listeners, this.filters);
  }

  loadOptions(inbound: Inbound, world: OptionsLoadWorld<Env>): Promise<AckBody | undefined> | undefined {
    const loader = optionsLoaderFor(inbound, this.listeners, this.filters);
    return loader && loadOptionsWith(loader, inbound, world as OptionsLoadWorld);
  }

  parked(effect: RunEffect, reason: string): PlannedEffect[] {
    return this.parkContributors.flatMap((contribute) => contribute(effect, reason));
  }

  /** Whether the user of `effect`'s run is told of its failures, and in what words: the listener's option over the app's. */
  failureNotices(effect: RunEffect) {
    return failureNoticesOf(this.appOptions.failureNotices, this.listeners.find((l) => l.name === effect.listener)?.spec);
  }

  /** @internal For listener kinds (`app.error`, `app.function`): what they plan once a run is finally parked. */
  onParked(contributor: ParkContributor): void {
    this.parkContributors.push(contributor);
  }

  /** Bolt's `app.error`, once a run is finally parked: given the error (`message`, `code`, `original`) and the run's args. */
  error(handler: ErrorHandler<Env>): this {
    if (!this.errorHandler) this.onParked(errorFollowUps);
    this.errorHandler = handler as ErrorHandler;
    return this;
  }

  run(effect: RunEffect, typed: RunTools<Env>): Promise<void> {
    // The Worker's env as it is: `Env` only types the listeners' registrations.
    return runRegistered(this.listeners, this.filters, this.errorHandler, effect, typed as RunTools);
  }

  private register(
    defaultName: string,
    listener: AnyListener,
    match: Registered["match"],
    needs: slackManifest.ListenerNeeds = {},
  ): this {
    const spec = specOf(listener);
    const name = registeredName(defaultName, spec, this.listeners);
    this.listeners.push({ name, spec, match });
    this.needs.push({ name, needs: slackManifest.withListenerOptions(needs, spec) });
    return this;
  }
}
