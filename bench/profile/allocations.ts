import type { AllocationNode } from "./cpuProfile";

/** Bytes allocated per event in one place: a function of the bundle, or one source file's functions. */
export interface AllocationTally {
  bytesPerEvent: number;
  where: string;
}

/** The source file each line of the bundle was written in, from esbuild's `// src/…` markers. */
function filesByLine(bundle: string): (line: number) => string {
  const starts: Array<{ line: number; file: string }> = [];
  bundle.split("\n").forEach((text, at) => {
    const marker = /^\/\/ ((?:src|bench|node_modules)\/\S+)$/.exec(text);
    if (marker?.[1]) starts.push({ line: at, file: marker[1].replace(/^node_modules\//, "") });
  });
  return (line) => {
    let file = "(bundle)";
    for (const start of starts) {
      if (start.line > line) break;
      file = start.file;
    }
    return file;
  };
}

/**
 * What a run allocated per event, from a sampled allocation profile of the Worker's isolate: in
 * all, by the bundle's source file and by function (natives such as `JSON.parse` counted apart,
 * with their caller). Sampled by bytes, not by time, so a loaded machine samples it as an idle
 * one does: two subjects or two checkouts compare on it directly.
 */
export function allocationsPerEvent(
  head: AllocationNode,
  bundle: string,
  events: number,
): { total: number; byFile: AllocationTally[]; byFunction: AllocationTally[] } {
  const fileAt = filesByLine(bundle);
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  const add = (tally: Map<string, number>, where: string, bytes: number) => tally.set(where, (tally.get(where) ?? 0) + bytes);
  const walk = (node: AllocationNode, caller: string, callerFile: string) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const ours = url.endsWith(".mjs");
    const file = ours ? fileAt(lineNumber) : callerFile;
    const name = functionName || "(anonymous)";
    const where = ours ? `${name} ${file}` : `${name} [native] ← ${caller}`;
    if (node.selfSize > 0) {
      total += node.selfSize;
      add(byFile, file, node.selfSize);
      add(byFunction, where, node.selfSize);
    }
    for (const child of node.children) walk(child, ours ? `${name} ${file}` : caller, file);
  };
  walk(head, "(root)", "(runtime)");
  const tallies = (counts: Map<string, number>) =>
    [...counts]
      .map(([where, bytes]) => ({ where, bytesPerEvent: bytes / events }))
      .sort((a, b) => b.bytesPerEvent - a.bytesPerEvent);
  return { total: total / events, byFile: tallies(byFile), byFunction: tallies(byFunction) };
}
