import type { OpenLoopProgress } from "../load/openLoop";

const tty = process.stdout.isTTY === true;
let lastPrinted = 0;

/** One live line per run on a terminal; a line every few seconds in CI logs. */
export function showProgress(label: string, progress: OpenLoopProgress, total: number): void {
  const line = `  ${label}: ${progress.sent}/${total} sent, ${progress.settled} answered, ${progress.non2xx} non-2xx, ${progress.inFlight} in flight`;
  if (tty) {
    process.stdout.write(`\r\x1b[2K${line}`);
  } else if (Date.now() - lastPrinted >= 5000 || progress.settled === total) {
    lastPrinted = Date.now();
    console.log(line);
  }
}

/** Ends a run's live line with its outcome. */
export function endProgress(summary: string): void {
  if (tty) process.stdout.write("\r\x1b[2K");
  console.log(`  ${summary}`);
}
