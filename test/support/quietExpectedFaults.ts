/**
 * workerd reports every exception a Durable Object method throws, and every abort, on the test
 * runner's own stderr — including the faults tests inject on purpose, which then read like
 * failures in a passing run. Those faults say `[expected fault]` in their message (and the
 * kill-mid-delivery test calls abortAllDurableObjects on purpose); their reports are dropped
 * here, in the runner's process (vitest.config.ts). Anything else still prints.
 */
export const EXPECTED_FAULT = "[expected fault]";
const EXPECTED_REPORTS = [EXPECTED_FAULT, "Application called abortAllDurableObjects()"];

export function quietExpectedFaults(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : "";
      if (EXPECTED_REPORTS.some((marker) => text.includes(marker))) return true;
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
}
