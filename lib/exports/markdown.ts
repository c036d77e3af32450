// The Markdown export: the stored report (same numbered citations as the viewer and the API) under
// a header that says what it is: question, date, settings and the support rate.
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import type { Nodes } from "mdast";
import { SOURCES_HEADING, sourceListLine } from "../report-citations";
import { chartOf } from "./blocks";
import { chartLayout } from "./chart-layout";
import { chartDataUri } from "./chart-svg";
import { percent, type ExportDocument } from "./document";

const quoteLines = (text: string) => text.trim().split("\n").map((l) => `> ${l}`.trimEnd()).join("\n");

const escapeAlt = (text: string) => text.replace(/\s+/g, " ").replace(/([\\[\]])/g, "\\$1");

/**
 * The body with each chart (a ```vega-lite block, as the other exports read it) as a figure: an SVG
 * image inline as a data URI — VS Code, Obsidian, Typora, pandoc and browsers show it with no file
 * beside the .md — whose alternative text says what it shows, and a numbered caption.
 */
export function withChartFigures(body: string): string {
  const spots: { start: number; end: number; chart: NonNullable<ReturnType<typeof chartOf>> }[] = [];
  const walk = (node: Nodes) => {
    if (node.type === "code" && node.lang === "vega-lite" && node.position?.start.offset !== undefined && node.position.end.offset !== undefined) {
      const chart = chartOf(node.value);
      if (chart) spots.push({ start: node.position.start.offset, end: node.position.end.offset, chart });
    }
    if ("children" in node) for (const child of node.children) walk(child as Nodes);
  };
  walk(fromMarkdown(body, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
  let out = "";
  let at = 0;
  spots.forEach(({ start, end, chart }, i) => {
    const alt = escapeAlt(chartLayout(chart).summary);
    out += `${body.slice(at, start)}![${alt}](${chartDataUri(chart)})\n\n_Figure ${i + 1}. ${escapeAlt(chart.title).replace(/([*_])/g, "\\$1")}_`;
    at = end;
  });
  return out + body.slice(at);
}

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
  const sources = doc.sources.length ? `\n\n${SOURCES_HEADING}\n\n${doc.sources.map(sourceListLine).join("\n")}` : "";
  return `${header.join("\n")}\n\n---\n\n${withChartFigures(doc.body.trim())}${sources}\n`;
}
