// An analysis's chart in the PDF, drawn as vectors: bars, a line or points over its values, the
// axis' extremes labelled, x labels when there are few points, and its title as the caption (as
// components/deep-research/result-chart.tsx draws it on the page).
import type PDFDocument from "pdfkit";
import type { Chart } from "./blocks";
import { winAnsi } from "./latin";

type Pdf = InstanceType<typeof PDFDocument>;

const HEIGHT = 170;
const PAD = { left: 48, bottom: 26, top: 8 };
const label = (v: number) => v.toLocaleString("en", { maximumFractionDigits: 2 });

/** Draws the chart at the current position, full width; `caption` writes its title (any script). */
export function drawChart(pdf: Pdf, chart: Chart, options: { x: number; width: number; bottom: number; color: string; muted: string; caption: (text: string) => void }) {
  if (pdf.y + HEIGHT + 30 > options.bottom) pdf.addPage();
  const top = pdf.y;
  const plotX = options.x + PAD.left;
  const plotW = options.width - PAD.left;
  const plotH = HEIGHT - PAD.bottom - PAD.top;
  const max = Math.max(0, ...chart.points.map((p) => p.y));
  const min = Math.min(0, ...chart.points.map((p) => p.y));
  const span = max - min || 1;
  const step = plotW / chart.points.length;
  const px = (i: number) => plotX + step * i + step / 2;
  const py = (v: number) => top + PAD.top + plotH - ((v - min) / span) * plotH;
  pdf.save();
  pdf.lineWidth(0.5).strokeColor(options.muted).moveTo(plotX, py(0)).lineTo(plotX + plotW, py(0)).stroke();
  pdf.font("Helvetica").fontSize(7).fillColor(options.muted);
  pdf.text(label(max), options.x, py(max) - 3, { width: PAD.left - 6, align: "right", lineBreak: false });
  if (min < 0) pdf.text(label(min), options.x, py(min) - 3, { width: PAD.left - 6, align: "right", lineBreak: false });
  if (chart.mark === "line") {
    chart.points.forEach((p, i) => (i === 0 ? pdf.moveTo(px(i), py(p.y)) : pdf.lineTo(px(i), py(p.y))));
    pdf.lineWidth(1.5).strokeColor(options.color).stroke();
  }
  chart.points.forEach((p, i) => {
    if (chart.mark === "bar") pdf.rect(px(i) - step * 0.35, Math.min(py(p.y), py(0)), step * 0.7, Math.abs(py(0) - py(p.y))).fillColor(options.color).fill();
    else pdf.circle(px(i), py(p.y), 2).fillColor(options.color).fill();
  });
  pdf.font("Helvetica").fontSize(7).fillColor(options.muted);
  if (chart.points.length <= 24) chart.points.forEach((p, i) => pdf.text(winAnsi(p.x).slice(0, 10), px(i) - step / 2, top + PAD.top + plotH + 4, { width: step, align: "center", lineBreak: false }));
  pdf.text(winAnsi(`${chart.y} by ${chart.x}`), plotX, top + HEIGHT - 10, { width: plotW, align: "center", lineBreak: false });
  pdf.restore();
  pdf.x = options.x;
  pdf.y = top + HEIGHT + 4;
  options.caption(chart.title);
}
