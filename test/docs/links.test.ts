// The docs a newcomer reads (issue 56): every relative link of README.md, docs/*.md and
// bench/README.md reaches a file of the repository, and a `#anchor` a heading of its page (GitHub's
// heading ids); and the configuration reference names every variable lib/env.ts reads, so that a
// setting added to the code without a line in the docs fails here.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

const ROOT = path.resolve(import.meta.dirname, "../..");

function docFiles(): string[] {
  const docs = fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => path.join("docs", f));
  return ["README.md", "bench/README.md", ...docs.sort()];
}

/** The Markdown without fenced code blocks and inline code spans, whose brackets are not links. */
function prose(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "")
    .replace(/(`+)[\s\S]*?\1/g, "");
}

/** Link targets: inline links and images `[text](target "title")`, and reference definitions `[x]: target`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const defined = [...text.matchAll(/^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/gm)].map((m) => m[1]);
  return [...inline, ...defined];
}

/** GitHub's id of each heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const m of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, "");
    const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "").replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** Each relative link of `file` that does not resolve, with the reason. */
function brokenLinks(file: string, markdown: string, read: (file: string) => string | undefined): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …: not a file of the repository
    const [rawPath, anchor] = target.split("#", 2);
    const linked = rawPath === "" ? file : path.posix.normalize(rawPath.startsWith("/") ? rawPath.slice(1) : path.posix.join(path.posix.dirname(file), decodeURIComponent(rawPath)));
    const text = read(linked);
    if (text === undefined) {
      broken.push(`${file}: ${target} (no file ${linked})`);
      continue;
    }
    if (anchor && linked.endsWith(".md") && !headingIds(text).has(anchor.toLowerCase())) {
      broken.push(`${file}: ${target} (no heading #${anchor} in ${linked})`);
    }
  }
  return broken;
}

function readRepoFile(file: string): string | undefined {
  const full = path.join(ROOT, file);
  if (!full.startsWith(ROOT) || !fs.existsSync(full)) return undefined;
  return fs.statSync(full).isDirectory() ? "" : fs.readFileSync(full, "utf8");
}

test("every relative link of README.md and docs/*.md reaches a file, and its anchor a heading", () => {
  const files = docFiles();
  assert.ok(files.length >= 10, `expected the docs pages, found ${files.join(", ")}`);
  const broken = files.flatMap((file) => brokenLinks(file, fs.readFileSync(path.join(ROOT, file), "utf8"), readRepoFile));
  assert.deepEqual(broken, []);
});

test("README.md stays a front door: at most 200 lines, linking every docs page", () => {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  assert.ok(readme.split("\n").length <= 200, `README.md has ${readme.split("\n").length} lines`);
  const linked = new Set(linkTargets(readme).map((t) => t.split("#")[0]));
  const unlinked = docFiles().filter((f) => f.startsWith("docs/") && !linked.has(f));
  assert.deepEqual(unlinked, [], "docs pages the README does not link");
});

test("the checker finds a missing file, a missing heading, and skips code and URLs", () => {
  const files: Record<string, string> = { "docs/a.md": "# Title\n## The wizard's estimate\n## Title\n" };
  const doc = [
    "[ok](a.md#the-wizards-estimate) [ok](a.md#title-1) [ok](#local) [web](https://example.com/x.md)",
    "[gone](missing.md) [bad anchor](a.md#nowhere)",
    "`[not a link](nothing.md)`",
    "```",
    "[in a fence](nothing.md)",
    "```",
    "## Local",
  ].join("\n");
  const broken = brokenLinks("docs/b.md", doc, (f) => (f === "docs/b.md" ? doc : files[f]));
  assert.deepEqual(broken, ["docs/b.md: missing.md (no file docs/missing.md)", "docs/b.md: a.md#nowhere (no heading #nowhere in docs/a.md)"]);
});

test("docs/configuration.md names every variable lib/env.ts reads", () => {
  const env = fs.readFileSync(path.join(ROOT, "lib/env.ts"), "utf8");
  const schema = env.slice(env.indexOf("const schema = z.object({"), env.indexOf("export type Env"));
  const variables = [...schema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
  assert.ok(variables.length > 80, `read ${variables.length} variables from lib/env.ts`);
  const reference = fs.readFileSync(path.join(ROOT, "docs/configuration.md"), "utf8");
  const missing = variables.filter((v) => !new RegExp(`\`${v}\``).test(reference));
  assert.deepEqual(missing, []);
});
