// Fails when modules under src/ import each other in a cycle — type-only imports included,
// since a cycle of types is still two layers that cannot be read apart — and when folders do:
// each top-level folder of src/ is one layer (a loose top-level file is a unit of its own), and
// no layer may import one that imports it back, nor one declared above it in the order that
// docs/design.md "Folders and layers" lists, which names every folder. Also fails when a file
// outside a capability of src/app/ or a part of src/parts/ (a sub-folder) imports anything of it but
// its index.ts, when capabilities (or parts) import each other in a cycle, and when a file is over its budget (a Durable Object
// class file over 150 lines, any other file under src/ over 250), and when two files under src/ share a base name
// (index.ts apart): a path in a doc or a log then names one file. `npm run cycles`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const src = join(root, "src");

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

function resolveImport(from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) {
    try {
      if (statSync(candidate).isFile() && candidate.endsWith(".ts")) return candidate;
    } catch {}
  }
  return undefined;
}

const files = sources(src);
const graph = new Map(
  files.map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles.map((i) => resolveImport(file, i.fileName)).filter((t) => t !== undefined);
    return [file, [...new Set(targets)]];
  }),
);

/** Tarjan's strongly connected components of `graph`: each component of more than one node (or a node importing itself) is a cycle. */
function cyclesOf(graph) {
  let index = 0;
  const indices = new Map();
  const lowlinks = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  function connect(node) {
    indices.set(node, index);
    lowlinks.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        lowlinks.set(node, Math.min(lowlinks.get(node), lowlinks.get(next)));
      } else if (onStack.has(next)) lowlinks.set(node, Math.min(lowlinks.get(node), indices.get(next)));
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
    }
  }
  for (const node of graph.keys()) if (!indices.has(node)) connect(node);
  return found;
}

/** A module's layer: its top-level folder under src/ (`platform/`), or the loose file itself (`lib.ts`). */
function unitOf(file) {
  const [first, ...rest] = relative(src, file).split("/");
  return rest.length > 0 ? `${first}/` : first;
}

// The folder graph, with one example import per edge so a cycle can be read and cut.
const example = new Map();
const folderGraph = new Map(files.map((file) => [unitOf(file), new Set()]));
for (const [file, targets] of graph)
  for (const target of targets) {
    const from = unitOf(file);
    const to = unitOf(target);
    if (from === to) continue;
    folderGraph.get(from).add(to);
    if (!example.has(`${from} ${to}`)) example.set(`${from} ${to}`, `${relative(src, file)} → ${relative(src, target)}`);
  }
// The declared order: the "Folders and layers" table of docs/design.md, bottom layer first.
const design = readFileSync(join(root, "docs/design.md"), "utf8");
const section = design.slice(
  design.indexOf("## Folders and layers"),
  design.indexOf("\n## ", design.indexOf("## Folders and layers") + 1),
);
const declared = [...section.matchAll(/^\| \d+ \| `([^`]+)` \|/gm)].map((m) => m[1]);
const layerOf = new Map(declared.map((unit, layer) => [unit, layer]));
const undeclared = [...folderGraph.keys()].filter((unit) => !layerOf.has(unit)).sort();
const upward = [];
for (const [from, targets] of folderGraph)
  for (const to of targets)
    if (layerOf.has(from) && layerOf.has(to) && layerOf.get(to) > layerOf.get(from))
      upward.push(`${from} → ${to}: ${example.get(`${from} ${to}`)}`);

// Capabilities and parts: each sub-folder of src/app/ (a capability) and of src/parts/ (a shard's
// part) shows its public face in its index.ts; a file outside one imports it only through that
// index, and capabilities (parts) do not import each other in a cycle.
const FACED = ["app", "parts"];
const capabilityOf = (file) => {
  const [first, second, ...rest] = relative(src, file).split("/");
  return FACED.includes(first) && rest.length > 0 ? `${first}/${second}/` : undefined;
};
const internals = [];
const capabilityGraph = new Map();
for (const [file, targets] of graph)
  for (const target of targets) {
    const to = capabilityOf(target);
    const from = capabilityOf(file);
    if (to === undefined || to === from) continue;
    if (target !== join(src, to, "index.ts")) internals.push(`${relative(src, file)} → ${relative(src, target)}`);
    if (from === undefined) continue;
    if (!capabilityGraph.has(from)) capabilityGraph.set(from, new Set());
    capabilityGraph.get(from).add(to);
    if (!example.has(`${from} ${to}`)) example.set(`${from} ${to}`, `${relative(src, file)} → ${relative(src, target)}`);
  }
const capabilityCycles = cyclesOf(new Map([...capabilityGraph].map(([unit, targets]) => [unit, [...targets]])));

// Budgets (docs/design.md "Budgets"): a Durable Object class file at most 150 lines, any other file under src/ at most 250.
const FILE_BUDGET = 250;
const DURABLE_OBJECT_BUDGET = 150;
const overBudget = [];
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  const durableObject = /\bextends\s+DurableObject\b/.test(text);
  const budget = durableObject ? DURABLE_OBJECT_BUDGET : FILE_BUDGET;
  if (lines > budget)
    overBudget.push(
      `${relative(root, file)}: ${lines} lines, over ${durableObject ? "a Durable Object class file's" : "a file's"} ${budget}`,
    );
}

// Names: no two files under src/ share a base name, but index.ts (each folder's face).
const byName = new Map();
for (const file of files) {
  const name = file.slice(file.lastIndexOf("/") + 1);
  if (name === "index.ts") continue;
  byName.set(name, [...(byName.get(name) ?? []), relative(root, file)]);
}
const sharedNames = [...byName]
  .filter(([, paths]) => paths.length > 1)
  .map(([name, paths]) => `${name}: ${paths.sort().join(" and ")}`);

const folderCycles = cyclesOf(new Map([...folderGraph].map(([unit, targets]) => [unit, [...targets]])));

const cycles = cyclesOf(graph);
const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
if (cycles.length > 0) {
  console.error(`cycles: ${cycles.length} import cycle(s) under src/:`);
  for (const cycle of cycles)
    console.error(
      `  ${cycle
        .map((f) => relative(root, f))
        .sort()
        .join(" ↔ ")}`,
    );
}
if (folderCycles.length > 0) {
  console.error(`cycles: ${folderCycles.length} folder cycle(s) under src/ (a folder imports one above it):`);
  for (const cycle of folderCycles) {
    const members = new Set(cycle);
    console.error(`  ${[...members].sort().join(" ↔ ")}`);
    for (const from of [...members].sort())
      for (const to of [...folderGraph.get(from)].sort())
        if (members.has(to)) console.error(`    ${from} → ${to}: ${example.get(`${from} ${to}`)}`);
  }
}
if (undeclared.length > 0)
  console.error(`cycles: not in docs/design.md "Folders and layers": ${undeclared.join(", ")} — give each its layer there`);
if (upward.length > 0) {
  console.error(`cycles: ${upward.length} import(s) of a folder above (docs/design.md "Folders and layers"):`);
  for (const line of upward.sort()) console.error(`  ${line}`);
}
if (internals.length > 0) {
  console.error(`cycles: ${internals.length} import(s) of a capability's or a part's internals (import its index.ts):`);
  for (const line of internals.sort()) console.error(`  ${line}`);
}
if (capabilityCycles.length > 0) {
  console.error(`cycles: ${capabilityCycles.length} cycle(s) among the capabilities of src/app/ and the parts of src/parts/:`);
  for (const cycle of capabilityCycles) {
    const members = new Set(cycle);
    for (const from of [...members].sort())
      for (const to of [...(capabilityGraph.get(from) ?? [])].sort())
        if (members.has(to)) console.error(`    ${from} → ${to}: ${example.get(`${from} ${to}`)}`);
  }
}
if (overBudget.length > 0) {
  console.error(`budgets: ${overBudget.length} file(s) over budget (compose a new part instead: STYLE.md):`);
  for (const line of overBudget.sort()) console.error(`  ${line}`);
}
if (sharedNames.length > 0) {
  console.error(
    `names: ${sharedNames.length} base name(s) shared by files under src/ (rename one to its role: docs/design.md "Words"):`,
  );
  for (const line of sharedNames.sort()) console.error(`  ${line}`);
}
/** How many sub-folders of src/<top>/ are entered by their index.ts. */
const faced = (top) => new Set(files.map(capabilityOf).filter((unit) => unit?.startsWith(`${top}/`))).size;
const failed = [cycles, folderCycles, undeclared, upward, internals, capabilityCycles, overBudget, sharedNames].some(
  (list) => list.length > 0,
);
if (failed) process.exit(1);
console.log(
  `cycles: none among ${files.length} modules (${edges} imports); ${folderGraph.size} folders and top-level files under src/, each imports only those below it (docs/design.md); ${faced("app")} capabilities of src/app/ and ${faced("parts")} parts of src/parts/, each used through its index.ts; every file within its budget (${DURABLE_OBJECT_BUDGET} lines for a Durable Object class, ${FILE_BUDGET} for any other); no two files share a base name but index.ts`,
);
