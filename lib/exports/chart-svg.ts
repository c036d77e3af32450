// An analysis chart as a standalone SVG document (chart-layout.ts's geometry, the page's look in
// fixed colours): the Markdown export embeds it as an image, the DOCX export as a drawing. It names
// itself (<title>) and says what it shows (<desc>), for readers that cannot see it.
import { chartLayout, valueLabel, type Chart } from "./chart-layout";

const INK = "#1f2328";
const MUTED = "#59636e";
const GRID = "#d0d7de";
const MARK = "#0b57d0";

const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
const n = (v: number) => String(Math.round(v * 10) / 10);

export function chartSvg(chart: Chart, size: { width?: number; height?: number } = {}): string {
  const l = chartLayout(chart, { width: size.width ?? 640, height: size.height ?? 320, fontSize: 11 });
  const { plot } = l;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${l.width}" height="${l.height}" viewBox="0 0 ${l.width} ${l.height}" role="img" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    `<title>${esc(chart.title)}</title>`,
    `<desc>${esc(l.summary)}</desc>`,
    `<rect width="${l.width}" height="${l.height}" fill="#ffffff"/>`,
    `<text x="${n(l.title.x)}" y="${n(l.title.y)}" text-anchor="middle" font-size="13" font-weight="bold" fill="${INK}">${esc(l.title.text)}</text>`,
  ];
  for (const t of l.yTicks) {
    parts.push(`<line x1="${n(plot.x)}" x2="${n(plot.x + plot.w)}" y1="${n(t.y)}" y2="${n(t.y)}" stroke="${GRID}" stroke-width="0.6"/>`);
    parts.push(`<line x1="${n(plot.x - 4)}" x2="${n(plot.x)}" y1="${n(t.y)}" y2="${n(t.y)}" stroke="${MUTED}"/>`);
    parts.push(`<text x="${n(plot.x - 6)}" y="${n(t.y + 3.5)}" text-anchor="end" fill="${MUTED}">${esc(t.label)}</text>`);
  }
  parts.push(`<line x1="${n(plot.x)}" x2="${n(plot.x)}" y1="${n(plot.y)}" y2="${n(plot.y + plot.h)}" stroke="${MUTED}"/>`);
  for (const b of l.bars) parts.push(`<rect x="${n(b.x)}" y="${n(b.y)}" width="${n(b.w)}" height="${n(Math.max(b.h, 0.5))}" fill="${MARK}"><title>${esc(`${b.label}: ${valueLabel(b.value)}`)}</title></rect>`);
  if (l.mark === "line" && l.points.length > 1) parts.push(`<polyline fill="none" stroke="${MARK}" stroke-width="2" points="${l.points.map((p) => `${n(p.x)},${n(p.y)}`).join(" ")}"/>`);
  for (const p of l.points) parts.push(`<circle cx="${n(p.x)}" cy="${n(p.y)}" r="3" fill="${MARK}"><title>${esc(`${p.label}: ${valueLabel(p.value)}`)}</title></circle>`);
  // The zero baseline over the marks.
  parts.push(`<line x1="${n(plot.x)}" x2="${n(plot.x + plot.w)}" y1="${n(l.zeroY)}" y2="${n(l.zeroY)}" stroke="${INK}" stroke-width="1"/>`);
  for (const x of l.xLabels) {
    parts.push(`<line x1="${n(x.x)}" x2="${n(x.x)}" y1="${n(plot.y + plot.h)}" y2="${n(plot.y + plot.h + 4)}" stroke="${MUTED}"/>`);
    parts.push(`<text x="${n(x.x)}" y="${n(plot.y + plot.h + 16)}" text-anchor="middle" fill="${MUTED}">${esc(x.text)}</text>`);
  }
  parts.push(`<text x="${n(l.xTitle.x)}" y="${n(l.xTitle.y)}" text-anchor="middle" font-weight="bold" fill="${INK}">${esc(l.xTitle.text)}</text>`);
  parts.push(`<text transform="translate(${n(l.yTitle.x)} ${n(l.yTitle.y)}) rotate(-90)" text-anchor="middle" font-weight="bold" fill="${INK}">${esc(l.yTitle.text)}</text>`);
  parts.push("</svg>");
  return parts.join("");
}

/** The SVG as a data URI for a Markdown image: every viewer that shows images shows it without a file beside it. */
export const chartDataUri = (chart: Chart) => `data:image/svg+xml;base64,${Buffer.from(chartSvg(chart), "utf8").toString("base64")}`;
