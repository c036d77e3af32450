// An analysis's chart in the PDF, drawn as vectors from chart-layout.ts's geometry (as the page and
// the other exports draw it): its title, the y axis with nice ticks and grid lines, the zero baseline,
// bars, a line or points, thinned x labels and both axis titles; the caption names it as a figure.
import type PDFDocument from "pdfkit";
import { chartLayout, type Chart } from "./chart-layout";
import { winAnsi } from "./latin";

type Pdf = InstanceType<typeof PDFDocument>;

const HEIGHT = 210;
const FONT = 7.5;

/** Draws the chart at the current position, full width; `caption` writes its caption (any script). */
export function drawChart(pdf: Pdf, chart: Chart, options: { x: number; width: number; bottom: number; color: string; muted: string; ink?: string; caption: (text: string) => void; captionText?: string }) {
  if (pdf.y + HEIGHT + 30 > options.bottom) pdf.addPage();
  const top = pdf.y;
  const ink = options.ink ?? "#1f2328";
  const l = chartLayout(chart, { width: options.width, height: HEIGHT, fontSize: FONT });
  const X = (x: number) => options.x + x;
  const Y = (y: number) => top + y;
  const { plot } = l;
  const text = (s: string, x: number, y: number, width: number, align: "left" | "center" | "right", bold = false) =>
    pdf.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(FONT).fillColor(bold ? ink : options.muted).text(winAnsi(s), x, y, { width, align, lineBreak: false, height: FONT * 1.4, ellipsis: true });
  pdf.save();
  pdf.font("Helvetica-Bold").fontSize(FONT + 1.5).fillColor(ink).text(winAnsi(l.title.text), X(0), Y(2), { width: options.width, align: "center", lineBreak: false, height: FONT * 2, ellipsis: true });
  for (const t of l.yTicks) {
    pdf.lineWidth(0.4).strokeColor("#d0d7de").moveTo(X(plot.x), Y(t.y)).lineTo(X(plot.x + plot.w), Y(t.y)).stroke();
    pdf.lineWidth(0.5).strokeColor(options.muted).moveTo(X(plot.x - 3), Y(t.y)).lineTo(X(plot.x), Y(t.y)).stroke();
    text(t.label, X(0), Y(t.y) - FONT / 2, plot.x - 6, "right");
  }
  pdf.lineWidth(0.5).strokeColor(options.muted).moveTo(X(plot.x), Y(plot.y)).lineTo(X(plot.x), Y(plot.y + plot.h)).stroke();
  for (const b of l.bars) pdf.rect(X(b.x), Y(b.y), b.w, Math.max(b.h, 0.4)).fillColor(options.color).fill();
  if (l.mark === "line" && l.points.length > 1) {
    l.points.forEach((p, i) => (i === 0 ? pdf.moveTo(X(p.x), Y(p.y)) : pdf.lineTo(X(p.x), Y(p.y))));
    pdf.lineWidth(1.5).strokeColor(options.color).stroke();
  }
  for (const p of l.points) pdf.circle(X(p.x), Y(p.y), 2).fillColor(options.color).fill();
  pdf.lineWidth(0.8).strokeColor(ink).moveTo(X(plot.x), Y(l.zeroY)).lineTo(X(plot.x + plot.w), Y(l.zeroY)).stroke();
  const band = l.xLabels.length > 1 ? l.xLabels[1].x - l.xLabels[0].x : plot.w;
  for (const x of l.xLabels) {
    pdf.lineWidth(0.5).strokeColor(options.muted).moveTo(X(x.x), Y(plot.y + plot.h)).lineTo(X(x.x), Y(plot.y + plot.h + 3)).stroke();
    text(x.text, X(x.x - band / 2), Y(plot.y + plot.h + 5), band, "center");
  }
  text(l.xTitle.text, X(plot.x), Y(l.xTitle.y - FONT), plot.w, "center", true);
  // The y axis' title, turned a quarter to read upwards.
  pdf.save();
  pdf.rotate(-90, { origin: [X(l.yTitle.x), Y(l.yTitle.y)] });
  text(l.yTitle.text, X(l.yTitle.x) - plot.h / 2, Y(l.yTitle.y) - FONT / 2, plot.h, "center", true);
  pdf.restore();
  pdf.restore();
  pdf.x = options.x;
  pdf.y = top + HEIGHT + 4;
  options.caption(options.captionText ?? chart.title);
}
