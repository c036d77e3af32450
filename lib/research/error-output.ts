// error-output.md: what a failed research leaves behind — every analysed website with its extracted
// content and URL, every failed website with its error, and any partial report.
import fs from "node:fs/promises";
import path from "node:path";
import { getEnv } from "../env";
import type { ResearchGraph } from "../explore/public-shape";
import { toWebsiteView } from "../explore/public-shape";

export function renderErrorOutput(r: ResearchGraph): string {
  const websites = r.queryPages.map(toWebsiteView);
  const queryText = new Map(r.queries.map((q) => [q.id, q.text]));
  const analysed = websites.filter((w) => w.status === "analyzed");
  const failed = websites.filter((w) => w.status === "failed");
  const out: string[] = [
    `# Research failed: ${r.initialPrompt}`,
    "",
    `- Status: ${r.status}`,
    `- Error: ${r.error ?? "(none recorded)"}`,
    `- Queries: ${r.queries.length} (${r.queries.filter((q) => q.status === "completed").length} completed, ${r.queries.filter((q) => q.status === "failed").length} failed)`,
    `- Tokens: ${r.promptTokens} prompt, ${r.completionTokens} completion`,
    "",
    `## Analysed websites (${analysed.length})`,
    "",
  ];
  for (const w of analysed) {
    out.push(`### ${w.title ?? w.url}`, "", `URL: ${w.url}`, `Query: ${queryText.get(w.query_id) ?? ""}`, "");
    out.push(w.items.length ? w.items.map((i) => `- ${i.content}`).join("\n") : "_Nothing relevant extracted._", "");
  }
  out.push(`## Failed websites (${failed.length})`, "");
  for (const w of failed) out.push(`- ${w.url} — ${w.error_message ?? "unknown error"}`);
  out.push("", "## Partial report", "", r.report?.trim() ? r.report : "_No report was written before the failure._", "");
  return out.join("\n");
}

export function errorOutputPath(researchId: string): string {
  return path.resolve(getEnv().REPORTS_DIR, researchId, "error-output.md");
}

export async function writeErrorOutputFile(r: ResearchGraph): Promise<string> {
  const file = errorOutputPath(r.id);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, renderErrorOutput(r), "utf8");
  return file;
}
