/** Rows written per SQL statement, summed in this isolate; read by the bench to explain the cost per event. */
export interface StatementCost {
  statement: string;
  calls: number;
  rowsWritten: number;
}

const totals = new Map<string, StatementCost>();

export function recordStatement(query: string, rowsWritten: number): void {
  const statement = query.replace(/\s+/g, " ").trim();
  const entry = totals.get(statement) ?? { statement, calls: 0, rowsWritten: 0 };
  entry.calls++;
  entry.rowsWritten += rowsWritten;
  totals.set(statement, entry);
}

export function statementCosts(): StatementCost[] {
  return [...totals.values()].sort((a, b) => b.rowsWritten - a.rowsWritten);
}
