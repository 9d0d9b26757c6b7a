/** A plain-text table: right-aligned numbers, left-aligned text, one header rule. */
export function formatTable(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  const cells = rows.map((row) => row.map((cell) => (cell === null ? "–" : String(cell))));
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const numeric = headers.map((_, i) => cells.every((row) => /^[-–\d.,×%<>=≥ ]*$/.test(row[i] ?? "")));
  const line = (row: readonly string[]) =>
    row.map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join("  ");
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}
