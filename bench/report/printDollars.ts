import { PRICES } from "../pricing";
import { type Dollars, dollarsPerMillionEvents, type MeasuredUsage, type TermName } from "./dollars";
import { formatTable } from "./table";

/** How each term is known (bench/README.md, "Dollars per million events"). */
const BASIS: Record<TermName, string> = {
  "worker requests": "counted: the load's requests",
  "worker cron invocations": "estimated: one a minute over the run",
  "worker CPU-ms": "upper bound: the whole runtime's CPU (/proc), objects and database included",
  "DO requests (RPC)": "counted: calls on stubs",
  "DO alarms": "counted: alarm() runs",
  "DO duration GB-s": "estimated: each object with a request or alarm in the run, active all of it, 128 MB",
  "rows written": "counted: SQLite's tally per statement (+1 per setAlarm)",
  "rows read": "counted: SQLite's tally per statement",
  "storage GB-month": "measured growth, held 36 h (coordinator) / 24 h (seed)",
};

const usd = (n: number) => (n === 0 ? "0" : n < 0.001 ? n.toExponential(1) : n < 1 ? n.toFixed(4) : n.toFixed(2));
const units = (n: number) => (n === 0 ? "0" : n < 0.01 ? n.toExponential(2) : n.toFixed(2));

/**
 * Prints dollars per million events for each subject side by side — each term's units per event
 * and its dollars — with the prices' sources and the dates they were read.
 */
export function printDollars(subjects: Array<{ label: string; usage: MeasuredUsage | null }>): void {
  const costed = subjects.map(({ label, usage }) => ({
    label,
    usage,
    dollars: usage ? dollarsPerMillionEvents(usage, PRICES) : null,
  }));
  console.log(
    "\ndollars per million events (list prices beyond the monthly allowance; per event: units, then $ per million events)",
  );
  const cell = (dollars: Dollars | null, term: TermName) => {
    const found = dollars?.terms.find((t) => t.term === term);
    return found ? `${units(found.perEvent)} → $${usd(found.usdPerMillionEvents)}` : "–";
  };
  const terms = Object.keys(BASIS) as TermName[];
  console.log(
    formatTable(
      ["term", ...costed.map((c) => c.label), "how it is known"],
      [
        ...terms.map((term) => [term, ...costed.map((c) => cell(c.dollars, term)), BASIS[term]]),
        [
          "total $ / million events",
          ...costed.map((c) => (c.dollars ? `$${usd(c.dollars.usdPerMillionEvents)}` : "not measured")),
          "",
        ],
        ["events measured", ...costed.map((c) => String(c.usage?.events ?? "–")), ""],
      ],
    ),
  );
  const { workers, durableObjects, d1 } = PRICES;
  console.log(
    `  prices: Workers ${workers.source} (read ${workers.readOn}); Durable Objects ${durableObjects.source} (read ${durableObjects.readOn}); D1 ${d1.source} (read ${d1.readOn})`,
  );
}

/** Each subject's SQL statements with their rows per event (its last round), most rows written first. */
export function printStatementRows(
  subjects: Array<{
    label: string;
    statements: Array<{ statement: string; callsPerEvent: number; rowsWrittenPerEvent: number; rowsReadPerEvent: number }>;
  }>,
): void {
  for (const { label, statements } of subjects) {
    if (statements.length === 0) continue;
    console.log(`\n${label}: rows per event by SQL statement (last round)`);
    console.log(
      formatTable(
        ["statement", "calls", "written", "read"],
        statements.map((s) => [
          s.statement.length > 90 ? `${s.statement.slice(0, 89)}…` : s.statement,
          s.callsPerEvent,
          s.rowsWrittenPerEvent,
          s.rowsReadPerEvent,
        ]),
      ),
    );
  }
}
