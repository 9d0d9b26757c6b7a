/**
 * The runtime's log lines counted by their message (`msg` of the JSON line `platform/log.ts` writes,
 * else the line's first 120 characters), so a long run can say what it warned of without keeping
 * every line: an at-least-once fallback, a lease lost, a refusal.
 */
export class LogTally {
  private readonly counts = new Map<string, number>();

  add(line: string): void {
    const key = messageOf(line);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** The `top` most frequent messages, most first, one a line. */
  summary(top = 10): string {
    if (this.counts.size === 0) return "runtime warnings and errors: none";
    const rows = [...this.counts].sort((a, b) => b[1] - a[1]).slice(0, top);
    return `runtime warnings and errors (by message, ${this.counts.size} kinds):\n${rows.map(([msg, n]) => `  ${String(n).padStart(7)}  ${msg}`).join("\n")}`;
  }
}

function messageOf(line: string): string {
  try {
    const parsed = JSON.parse(line) as { msg?: unknown };
    if (typeof parsed.msg === "string") return parsed.msg.slice(0, 160);
  } catch {
    // not one of ours: counted by its start
  }
  return line.slice(0, 120);
}
