// The database layer's boundaries: lib/db is the only importer of the Prisma client (tests and test
// helpers may use it for setup and assertions), and lib/db depends on nothing above it.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SKIP_DIRS = new Set(["node_modules", ".next", ".git", "data", "lib/generated", "playwright-report", "test-results"]);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** Files that still import the client, each with what to do; the test fails once one no longer does. */
const PENDING = new Map<string, string>([
]);

function sourceFiles(dir = ""): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(rel) && !entry.name.startsWith(".")) out.push(...sourceFiles(rel));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      out.push(rel);
    }
  }
  return out;
}

/** Every module a file imports (static, dynamic, re-exports, require), ignoring comments and strings. */
function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** A specifier as a project path ("lib/db/client"), or the package name for anything else. */
function target(file: string, specifier: string): string {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return path.posix.join(path.posix.dirname(file), specifier);
  return specifier;
}

const PRISMA = /^(lib\/db\/(client|create-client)(\.ts)?$|lib\/generated\/|@prisma\/|\.prisma\/)/;
// prisma.config.ts configures the Prisma CLI (migrations) itself.
const mayUsePrisma = (file: string) =>
  file.startsWith("lib/db/") || file.startsWith("test/helpers/") || /\.(test|spec)\.tsx?$/.test(file) || file === "prisma.config.ts";

function prismaImports(file: string): string[] {
  return importsOf(fs.readFileSync(path.join(ROOT, file), "utf8")).filter((s) => PRISMA.test(target(file, s)));
}

test("the import scanner finds every form of import, and nothing in comments or strings", () => {
  const text = [
    'import type { Research } from "../generated/prisma/client";',
    'import {\n  a,\n} from "./a";',
    'export * from "../db/tree";',
    'const { db } = await import("../lib/db/client");',
    '// import { b } from "./commented";',
    'const s = "import { c } from \'./quoted\'";',
  ].join("\n");
  assert.deepEqual(importsOf(text), ["../generated/prisma/client", "./a", "../db/tree", "../lib/db/client"]);
  assert.ok(PRISMA.test(target("scripts/x.ts", "../lib/db/client")));
  assert.ok(PRISMA.test(target("app/api/x/route.ts", "@/lib/db/client")));
  assert.ok(PRISMA.test(target("lib/research/x.ts", "../generated/prisma/client")));
  assert.ok(!PRISMA.test(target("lib/research/x.ts", "../db/research")));
});

test("outside lib/db, only tests and test helpers import the Prisma client or lib/generated", () => {
  const files = sourceFiles();
  assert.ok(files.includes("lib/research/service.ts") && files.includes("app/api/account/route.ts"), "the scan sees the source tree");
  const offenders = files
    .filter((file) => !mayUsePrisma(file) && !PENDING.has(file))
    .flatMap((file) => prismaImports(file).map((s) => `${file} imports ${s}`));
  assert.deepEqual(offenders, [], "call a query function of lib/db (by entity) and take row types from lib/db/types.ts");
  const done = [...PENDING.keys()].filter((file) => !fs.existsSync(path.join(ROOT, file)) || prismaImports(file).length === 0);
  assert.deepEqual(done, [], "no longer imports the client: remove it from PENDING");
});

/** A module of lib/ that imports only packages (a data structure such as lib/bounded-map.ts): below everything. */
function isLeaf(t: string): boolean {
  const file = ["", ".ts"].map((ext) => t + ext).find((f) => /^lib\/[^/]+\.ts$/.test(f) && fs.existsSync(path.join(ROOT, f)));
  if (!file) return false;
  return importsOf(fs.readFileSync(path.join(ROOT, file), "utf8")).every((s) => !s.startsWith(".") && !s.startsWith("@/"));
}

test("lib/db depends on nothing above it: only lib/db, lib/generated, lib/env, lib/types, leaf modules of lib/ and packages", () => {
  const allowed = /^(lib\/db\/|lib\/generated\/|lib\/env(\.ts)?$|lib\/types(\.ts)?$|prisma\/|scripts\/db-schema\.mjs$)/;
  assert.ok(isLeaf("lib/bounded-map") && !isLeaf("lib/limits") && !isLeaf("lib/research/service"), "the leaf check tells a leaf");
  const offenders = sourceFiles("lib/db").flatMap((file) =>
    importsOf(fs.readFileSync(path.join(ROOT, file), "utf8"))
      .filter((s) => s.startsWith(".") || s.startsWith("@/"))
      .map((s) => [s, target(file, s)])
      .filter(([, t]) => !allowed.test(t) && !isLeaf(t))
      .map(([s]) => `${file} imports ${s}`),
  );
  assert.deepEqual(offenders, []);
});

// The layout (docs/architecture.md): three engines on one platform. An engine may use the platform;
// the platform, the shared agents and auth know no engine; the browser's components know no page.
const ENGINES = ["lib/research/", "lib/deep-research/", "lib/answer/"];
const engineOf = (p: string) => ENGINES.find((e) => p.startsWith(e));

/** Project imports of every source file under `dir`, as [file, specifier, target path]. */
function projectImports(dir: string): [string, string, string][] {
  return sourceFiles(dir).flatMap((file) =>
    importsOf(fs.readFileSync(path.join(ROOT, file), "utf8"))
      .filter((s) => s.startsWith(".") || s.startsWith("@/"))
      .map((s): [string, string, string] => [file, s, target(file, s)]),
  );
}

test("no engine imports another engine", () => {
  const offenders = ENGINES.flatMap((dir) => projectImports(dir.slice(0, -1)))
    .filter(([file, , t]) => engineOf(t) && engineOf(t) !== engineOf(file))
    .map(([file, s]) => `${file} imports ${s}`);
  assert.deepEqual(offenders, [], "move what two engines share to the platform (e.g. lib/explore, lib/agents)");
});

test("the platform knows no engine: lib/auth, lib/agents, lib/explore, lib/runs (but its composition root), lib/ai, lib/search, lib/scrape, lib/events", () => {
  const platform = ["lib/auth", "lib/agents", "lib/explore", "lib/runs", "lib/ai", "lib/search", "lib/scrape", "lib/events"];
  const offenders = platform
    .flatMap((dir) => projectImports(dir))
    .filter(([file, , t]) => engineOf(t) && file !== "lib/runs/engines.ts")
    .map(([file, s]) => `${file} imports ${s}`);
  assert.deepEqual(offenders, [], "an engine registers itself in lib/runs/engines.ts; the edge (lib/api, app/) asks it for its views");
});

test("lib/auth builds no HTTP responses of the edge: it imports nothing from lib/api or app/", () => {
  const offenders = projectImports("lib/auth")
    .filter(([, , t]) => t.startsWith("lib/api/") || t.startsWith("app/"))
    .map(([file, s]) => `${file} imports ${s}`);
  assert.deepEqual(offenders, []);
});

test("components/ imports nothing from app/", () => {
  const offenders = projectImports("components")
    .filter(([, , t]) => t.startsWith("app/"))
    .map(([file, s]) => `${file} imports ${s}`);
  assert.deepEqual(offenders, [], "pass a server action in as a prop, or keep it beside the other actions in lib/");
});
