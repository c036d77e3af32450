// The Markdown export: the stored report (same numbered citations as the viewer and the API) under
// a header that says what it is: question, date, settings and the support rate.
import { SOURCES_HEADING } from "../report-citations";
import { percent, type ExportDocument } from "./document";

const quoteLines = (text: string) => text.trim().split("\n").map((l) => `> ${l}`.trimEnd()).join("\n");
const escapeTitle = (title: string) => title.replace(/\s+/g, " ").trim().replace(/([\\`*_[\]<>])/g, "\\$1");

export function markdownExport(doc: ExportDocument): string {
  const header = [
    `# ${doc.title}`,
    "",
    "**Question**",
    "",
    quoteLines(doc.question),
    "",
    `- **Date:** ${doc.date}`,
    ...doc.settings.map((s) => `- **${s.label}:** ${s.value}`),
    `- **Support rate:** ${doc.supportRate === null ? "not verified" : `${percent(doc.supportRate)} of claims fully supported by their cited sources`}`,
    "- **Written by:** Quarry",
  ];
  const sources = doc.sources.length ? `\n\n${SOURCES_HEADING}\n\n${doc.sources.map((s) => `${s.n}. ${escapeTitle(s.title)} — <${s.url}>`).join("\n")}` : "";
  return `${header.join("\n")}\n\n---\n\n${doc.body.trim()}${sources}\n`;
}
