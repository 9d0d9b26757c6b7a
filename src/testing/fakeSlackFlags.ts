import type { FakeSlackOptions } from "./fakeSlack";

/** The fake Slack server's port and options from its command line (`slack-fake`, `npm run fake-slack`). */
export interface FakeSlackFlags {
  port: number;
  options: FakeSlackOptions;
}

/** The flags that take a number, and the option each sets. */
const NUMBER_FLAGS = { "--stream-max-open-ms": "streamMaxOpenMs", "--stream-max-chars": "streamMaxChars" } as const;

/**
 * `--port N` (8788 unless told; 0 for a free one), `--stream-max-open-ms N`, `--stream-max-chars N`
 * (when a stream is dropped, how long its text may grow) and `--enforce-tiers` (Slack's rate limits).
 * Throws naming the flag when a value is not a number.
 */
export function parseFakeSlackFlags(argv: readonly string[]): FakeSlackFlags {
  const number = (flag: string): number | undefined => {
    const at = argv.indexOf(flag);
    if (at < 0) return undefined;
    const value = Number(argv[at + 1]);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${flag} takes a whole number, not "${argv[at + 1] ?? ""}"`);
    return value;
  };
  const options: FakeSlackOptions = {};
  for (const [flag, option] of Object.entries(NUMBER_FLAGS)) {
    const value = number(flag);
    if (value !== undefined) options[option] = value;
  }
  if (argv.includes("--enforce-tiers")) options.enforceTiers = true;
  return { port: number("--port") ?? 8788, options };
}
