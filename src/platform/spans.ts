/** What a span says of its delivery: ids and names only, never a payload, a token or a text. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** The part of the runtime's `tracing` (`cloudflare:workers`) used here: Cloudflare's custom spans. */
interface RuntimeTracing {
  enterSpan<T>(name: string, run: (span: RuntimeSpan) => T): T;
  /** The active span — outside any custom span, the invocation's root; absent from runtimes before it. */
  getActiveSpan?(): RuntimeSpan | undefined;
}
interface RuntimeSpan {
  readonly isTraced: boolean;
  setAttributes(attributes: SpanAttributes): unknown;
}

/** A span's attributes, or what makes them: made only for a span that keeps them (sampled, or the test hook's). */
export type SpanAttributesOf = SpanAttributes | (() => SpanAttributes);

const made = (attributes: SpanAttributesOf): SpanAttributes => (typeof attributes === "function" ? attributes() : attributes);

/** An entered span as the test hook is told of it. */
export interface EnteredSpan {
  name: string;
  attributes: SpanAttributes;
}

let tracing: RuntimeTracing | undefined;
let sink: ((span: EnteredSpan) => void) | undefined;

/**
 * Spans go to the runtime's `tracing` from now on (called once per isolate with what
 * `cloudflare:workers` exports). A runtime without it (older than custom spans) leaves every span
 * a plain call: nothing breaks, nothing is traced.
 */
export function traceWith(runtime: unknown): void {
  const candidate = runtime as Partial<RuntimeTracing> | undefined;
  tracing = typeof candidate?.enterSpan === "function" ? (candidate as RuntimeTracing) : undefined;
}

/**
 * Runs `run` inside a custom span named `name`, a child of whichever span is active (Cloudflare
 * nests them by async context and ends it when `run` returns or its promise settles). The
 * attributes are set only on a span the invocation samples (`isTraced`). Without the runtime's
 * tracing, or in an invocation it does not sample (its active span is not traced, so no child would
 * be), this is `run()`: no span and no async-context frame — seven an event, most never sampled.
 * Attributes given as a function are made only for a span that keeps them: a call's or a step's
 * copy of the attempt's ids is not made for each of them when nothing is traced.
 * Nothing else reads the spans' context (log lines carry their ids themselves: platform/log.ts).
 */
export function inSpan<T>(name: string, attributes: SpanAttributesOf, run: () => T): T {
  sink?.({ name, attributes: made(attributes) });
  if (tracing === undefined || tracing.getActiveSpan?.()?.isTraced === false) return run();
  return tracing.enterSpan(name, (span) => {
    if (span.isTraced) span.setAttributes(made(attributes));
    return run();
  });
}

/**
 * Test-only: every span entered in this isolate is told to `to` (local workerd records no spans:
 * its `isTraced` is false). Undefined stops it.
 */
export function recordEnteredSpans(to: ((span: EnteredSpan) => void) | undefined): void {
  sink = to;
}
