/** How long the model takes per token, unless told: one number every 50 ms. */
export const COUNTING_INTERVAL_MS = 50;

export interface CountingOptions {
  /** Milliseconds between two tokens (0: as fast as the event loop turns). */
  intervalMs?: number;
  /** Ends the generation where it is, as a model's client ends a generation whose request is aborted. */
  signal?: AbortSignal;
}

/**
 * A deterministic stand-in for a language model: the answer to "count to N", one token at a
 * time — "1", " 2", " 3" … — so that the tokens joined are exactly "1 2 3 … N". The same
 * question always gets the same tokens, as a retried run's stream expects of a deterministic model.
 */
export async function* countingModel(n: number, options: CountingOptions = {}): AsyncGenerator<string> {
  const { intervalMs = COUNTING_INTERVAL_MS, signal } = options;
  for (let number = 1; number <= n; number++) {
    if (number > 1) await pause(intervalMs, signal);
    signal?.throwIfAborted();
    yield number === 1 ? "1" : ` ${number}`;
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
