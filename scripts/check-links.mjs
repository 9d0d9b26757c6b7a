// Fails when a relative link in README.md or docs/**/*.md points at no file, or at a `#heading`
// that file does not have (GitHub's anchors: its slugs of headings, and explicit `id`/`name`
// attributes). External links are not fetched: CI reaches nothing but the registries. `npm run links`.
// Also fails when a quoted file drifts: a fenced block right after `<!-- quote: path -->` (path
// relative to the page) must be that file's content, byte for byte.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");

function markdownUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith(".md") ? [path] : [];
  });
}

/** The file's lines with fenced code blocks blanked (their links and headings are text). */
function proseLines(text) {
  let fence = null;
  return text.split("\n").map((line) => {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && opening) {
      fence = opening[1];
      return "";
    }
    if (fence !== null) {
      if (new RegExp(`^\\s{0,3}${fence[0]}{${fence.length},}\\s*$`).test(line)) fence = null;
      return "";
    }
    return line;
  });
}

const withoutCodeSpans = (line) => line.replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, " ");

/** GitHub's slug of a heading: its rendered text, lower-cased, punctuation dropped, spaces as hyphens. */
function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/`/g, "")
    .replace(/\*/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(lines) {
  const anchors = new Set();
  const seen = new Map();
  const add = (heading) => {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  };
  lines.forEach((line, i) => {
    const atx = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (atx) add(atx[1]);
    else if (/^\s{0,3}(=+|-+)\s*$/.test(line) && i > 0 && lines[i - 1].trim() !== "" && !/^\s*([-*+]|\d+\.)\s/.test(lines[i - 1]))
      add(lines[i - 1].trim());
    for (const match of line.matchAll(/<[a-z][^>]*\s(?:id|name)="([^"]+)"/gi)) anchors.add(match[1]);
  });
  return anchors;
}

/** Every link target written in the file: inline links and images, reference definitions, HTML href/src. */
function linksOf(lines) {
  const links = [];
  lines.forEach((raw, i) => {
    const line = withoutCodeSpans(raw);
    for (const match of line.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g))
      links.push({ line: i + 1, target: match[1].replace(/^<|>$/g, "") });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
    if (definition) links.push({ line: i + 1, target: definition[1].replace(/^<|>$/g, "") });
    for (const match of line.matchAll(/<[a-z][^>]*\s(?:href|src)="([^"]+)"/gi)) links.push({ line: i + 1, target: match[1] });
  });
  return links;
}

const isExternal = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");
const kind = (path) => {
  try {
    return statSync(path).isDirectory() ? "directory" : "file";
  } catch {
    return undefined;
  }
};

const files = [join(root, "README.md"), ...markdownUnder(join(root, "docs"))];
const parsed = new Map(files.map((file) => [file, proseLines(readFileSync(file, "utf8"))]));
const anchorCache = new Map();
const anchorsFor = (file) => {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(parsed.get(file) ?? proseLines(readFileSync(file, "utf8"))));
  return anchorCache.get(file);
};

const broken = [];
let checked = 0;
for (const file of files) {
  for (const { line, target } of linksOf(parsed.get(file))) {
    if (isExternal(target)) continue;
    checked++;
    const [pathPart, fragment] = target.split("#", 2);
    const path = decodeURIComponent(pathPart.split("?")[0]);
    const resolved = path === "" ? file : path.startsWith("/") ? join(root, path) : resolve(dirname(file), path);
    const where = `${relative(root, file)}:${line}: ${target}`;
    const found = kind(resolved);
    if (found === undefined) broken.push(`${where} — no such file (${relative(root, resolved)})`);
    else if (
      fragment !== undefined &&
      found === "file" &&
      resolved.endsWith(".md") &&
      !anchorsFor(resolved).has(decodeURIComponent(fragment))
    )
      broken.push(`${where} — ${relative(root, resolved)} has no heading or anchor "${fragment}"`);
  }
}

/** What is wrong with the quote whose marker is line `i` (naming `target`), if anything. */
function quoteProblem(file, lines, i, target) {
  const opening = /^(`{3,}|~{3,})/.exec(lines[i + 1] ?? "");
  if (!opening) return "the next line opens no fenced block";
  const end = lines.findIndex((candidate, j) => j > i + 1 && candidate.trim() === opening[1]);
  if (end < 0) return "its fenced block is not closed";
  const path = resolve(dirname(file), target);
  if (kind(path) !== "file") return `no such file (${relative(root, path)})`;
  const shown = lines.slice(i + 2, end);
  const real = readFileSync(path, "utf8").split("\n");
  if (`${shown.join("\n")}\n` === real.join("\n")) return undefined;
  const at = Math.max(
    0,
    shown.findIndex((line, n) => line !== real[n]),
  );
  return `differs from the file at its line ${at + 1}: "${real[at] ?? "(end of file)"}" is shown as "${shown[at] ?? "(end of block)"}"`;
}
let quotes = 0;
for (const file of files) {
  const lines = readFileSync(file, "utf8").split("\n");
  for (const [i, line] of lines.entries()) {
    const target = /^<!-- quote: (\S+) -->\s*$/.exec(line)?.[1];
    if (target === undefined) continue;
    quotes++;
    const problem = quoteProblem(file, lines, i, target);
    if (problem) broken.push(`${relative(root, file)}:${i + 1}: quote of ${target} — ${problem}`);
  }
}

// docs/design.md "Folders and layers" names every file under src/ (a capability of src/app/ by its
// index.ts header, which it links): a file added, moved or renamed without its line there fails.
const design = readFileSync(join(root, "docs/design.md"), "utf8");
const layers = design.slice(
  design.indexOf("## Folders and layers"),
  design.indexOf("\n## ", design.indexOf("## Folders and layers") + 1),
);
function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : [path];
  });
}
let named = 0;
for (const path of sourceFiles(join(root, "src"))) {
  const rel = relative(join(root, "src"), path);
  const capability = /^app\/([^/]+)\//.exec(rel)?.[1];
  const name = capability ? `src/app/${capability}/index.ts` : rel.split("/").at(-1);
  if (capability ? layers.includes(name) : layers.includes(`\`${name}\``)) named++;
  else
    broken.push(
      `docs/design.md "Folders and layers" does not name ${capability ? `${name} (the header of ${rel}'s capability)` : `\`${name}\` (src/${rel})`}`,
    );
}

// docs/design.md "Storage" names every table a migration of migrations/ creates: a table added
// without its words there fails.
const storage = design.slice(design.indexOf("## Storage"), design.indexOf("\n## ", design.indexOf("## Storage") + 1));
const tables = new Set();
for (const file of readdirSync(join(root, "migrations")).filter((name) => name.endsWith(".sql"))) {
  const sql = readFileSync(join(root, "migrations", file), "utf8").replace(/--.*$/gm, "");
  for (const [, table] of sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/gi)) {
    tables.add(table);
    if (!storage.includes(`\`${table}`))
      broken.push(`docs/design.md "Storage" does not name the table \`${table}\` (migrations/${file})`);
  }
}
if (broken.length > 0) {
  console.error(
    `${broken.length} broken link${broken.length === 1 ? "" : "s"} or drifted quote${broken.length === 1 ? "" : "s"}:\n${broken.join("\n")}`,
  );
  process.exit(1);
}
console.log(
  `links: ${checked} relative links in ${files.length} files resolve; ${quotes} quoted files match; docs/design.md names all ${named} files of src/ and its "Storage" all ${tables.size} tables of migrations/`,
);
