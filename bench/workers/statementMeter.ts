/** Rows written and read per SQL statement, summed in this isolate; read by the bench to explain the cost per event. */
export interface StatementCost {
  statement: string;
  calls: number;
  rowsWritten: number;
  rowsRead: number;
}

/** Keyed by the query as the code wrote it (cheap on the hot path); whitespace is normalised when read. */
const totals = new Map<string, StatementCost>();

export function recordStatement(query: string, rowsWritten: number, rowsRead: number): void {
  let entry = totals.get(query);
  if (!entry) {
    entry = { statement: query, calls: 0, rowsWritten: 0, rowsRead: 0 };
    totals.set(query, entry);
  }
  entry.calls++;
  entry.rowsWritten += rowsWritten;
  entry.rowsRead += rowsRead;
}

export function statementCosts(): StatementCost[] {
  const merged = new Map<string, StatementCost>();
  for (const entry of totals.values()) {
    const statement = entry.statement.replace(/\s+/g, " ").trim();
    const into = merged.get(statement) ?? { statement, calls: 0, rowsWritten: 0, rowsRead: 0 };
    into.calls += entry.calls;
    into.rowsWritten += entry.rowsWritten;
    into.rowsRead += entry.rowsRead;
    merged.set(statement, into);
  }
  return [...merged.values()].sort((a, b) => b.rowsWritten - a.rowsWritten);
}
