// What every export is made from: an engine's report view (lib/research/export-view.ts for a tree
// research, lib/deep-research/export-view.ts for a conversation), independent of the format.
import type { NumberedSource } from "../report-citations";

export interface ExportDocument {
  title: string;
  /** The researcher's question. */
  question: string;
  /** yyyy-mm-dd: when the report was written. */
  date: string;
  /** What the run was asked to do and did, one "label: value" line each. */
  settings: { label: string; value: string }[];
  /** Share of the report's claims its sources fully support (null: not verified). */
  supportRate: number | null;
  /** The report's Markdown without its title and its numbered source list. */
  body: string;
  sources: NumberedSource[];
  /** File name without extension: quarry-<question words>-<date>. */
  fileStem: string;
}

export const EXPORT_FORMATS = ["md", "pdf", "docx", "tex"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function slugify(text: string, max = 60): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  // Cut at a word boundary, not inside a word.
  const cut = slug.length > max ? slug.slice(0, slug.lastIndexOf("-", max) > 0 ? slug.lastIndexOf("-", max) : max) : slug;
  return cut.replace(/-+$/, "") || "report";
}

/** `quarry-<question words>-<yyyy-mm-dd>`, from the question (a report's title is often generic). */
export function fileStem(question: string, date: string): string {
  return `quarry-${slugify(question)}-${date}`;
}

/** The report's own "# " title, else the question's first line. */
export function reportTitle(markdown: string, question: string): string {
  const h1 = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
  return h1 || question.trim().split("\n")[0];
}

/** The body without its leading "# title" line: every export sets the title itself. */
export function withoutTitle(markdown: string): string {
  return markdown.replace(/^\s*#\s+.+\n+/, "");
}

export function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}
