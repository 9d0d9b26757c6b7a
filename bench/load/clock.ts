/** Milliseconds since the epoch with sub-millisecond resolution, comparable between this machine's processes. */
export function highResNow(): number {
  return performance.timeOrigin + performance.now();
}
