/** `--name value` from the command line, as text; undefined when absent. */
export function textArgument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** `--name N`, a positive number, or `fallback` when absent; anything else is refused by name. */
export function positiveArgument(name: string, fallback: number): number {
  const value = Number(textArgument(name) ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}
