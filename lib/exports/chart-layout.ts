// An analysis chart's geometry, computed once for every place that draws it: the conversation page
// (components/deep-research/result-chart.tsx, SVG), the PDF (pdf-chart.ts, vectors), the Markdown and
// DOCX exports (chart-svg.ts) and the LaTeX paper (a picture environment). The y scale always holds
// zero and runs between "nice" ticks (1, 2, 2.5, 5 × 10^k); bars stand on the zero baseline; x labels
// are thinned so they do not overlap; both axes carry their column's name, and the chart its title.
// Pure functions without dependencies: the browser bundle imports this file too.

export type ChartCell = string | number | boolean | null;

/** A chart of an analysis: its marks over x and y. */
export interface Chart {
  title: string;
  mark: string;
  x: string;
  y: string;
  points: { x: string; y: number }[];
}

/** At most this many marks are drawn (a result keeps at most ANALYSIS_MAX_ROWS rows). */
export const MAX_POINTS = 200;

/** The Vega-Lite subset the analysis agent writes (lib/deep-research/agents/analysis-chart.ts) as a chart, or null. */
export function chartFromSpec(spec: unknown): Chart | null {
  const s = spec as { title?: unknown; mark?: unknown; data?: { values?: unknown }; encoding?: { x?: { field?: unknown }; y?: { field?: unknown } } } | null;
  const x = s?.encoding?.x?.field;
  const y = s?.encoding?.y?.field;
  const values = s?.data?.values;
  if (typeof x !== "string" || typeof y !== "string" || !Array.isArray(values)) return null;
  const points = values
    .map((v: Record<string, unknown> | null) => ({ x: v?.[x] === null || v?.[x] === undefined ? "∅" : String(v[x]), y: v?.[y] === null || v?.[y] === undefined || v?.[y] === "" ? NaN : Number(v[y]) }))
    .filter((p) => Number.isFinite(p.y))
    .slice(0, MAX_POINTS);
  const mark = s?.mark === "line" || s?.mark === "point" ? s.mark : "bar";
  const title = typeof s?.title === "string" && s.title.trim() ? s.title.trim() : `${y} by ${x}`;
  return points.length ? { title, mark, x, y, points } : null;
}

/** The step of 1, 2, 2.5, 5 or 10 × 10^k nearest to `raw` (on a log scale, as d3's ticks choose). */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  const m = f >= Math.sqrt(50) ? 10 : f >= Math.sqrt(12.5) ? 5 : f >= Math.sqrt(5) ? 2.5 : f >= Math.sqrt(2) ? 2 : 1;
  return m * power;
}

/** Floating-point noise off a multiple of a step (0.30000000000000004 → 0.3). */
const tidy = (v: number) => (v === 0 ? 0 : Number(v.toPrecision(12)));

/**
 * The y axis over these values: from a multiple of the step at or below min(0, smallest) to one at
 * or above max(0, largest), with about `count` intervals; every tick a multiple of the step, so 0 is one.
 */
export function niceScale(values: number[], count = 5): { min: number; max: number; step: number; ticks: number[] } {
  const finite = values.filter(Number.isFinite);
  let lo = Math.min(0, ...finite);
  let hi = Math.max(0, ...finite);
  if (lo === hi) hi = 1; // nothing but zeros (or no values): a unit axis
  const step = niceStep((hi - lo) / Math.max(1, count));
  lo = tidy(Math.floor(lo / step + 1e-9) * step);
  hi = tidy(Math.ceil(hi / step - 1e-9) * step);
  const ticks: number[] = [];
  for (let i = 0, n = Math.round((hi - lo) / step); i <= n; i++) ticks.push(tidy(lo + i * step));
  return { min: lo, max: hi, step, ticks };
}

/** A tick's label: thousands separated, large values compact (1.2M), no more decimals than the step has. */
export function tickLabel(v: number, step: number): string {
  if (Math.abs(v) >= 1e6 || (Math.abs(v) >= 1e4 && step >= 1000)) return new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 2 }).format(v);
  let decimals = 0;
  while (decimals < 12 && !Number.isInteger(tidy(step * 10 ** decimals))) decimals++;
  return v.toLocaleString("en", { minimumFractionDigits: 0, maximumFractionDigits: decimals });
}

/** A value as a label or a mark's tooltip shows it. */
export const valueLabel = (v: number) => v.toLocaleString("en", { maximumFractionDigits: 6 });

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text);

export interface ChartLayout {
  width: number;
  height: number;
  mark: string;
  title: { text: string; x: number; y: number };
  /** The plot area, y downwards (SVG and PDF coordinates). */
  plot: { x: number; y: number; w: number; h: number };
  yTicks: { value: number; label: string; y: number }[];
  /** The zero baseline's y. */
  zeroY: number;
  bars: { x: number; y: number; w: number; h: number; label: string; value: number }[];
  points: { x: number; y: number; label: string; value: number }[];
  xLabels: { x: number; text: string; full: string }[];
  xTitle: { text: string; x: number; y: number };
  /** Drawn rotated by -90° about its point. */
  yTitle: { text: string; x: number; y: number };
  /** A sentence that says what the chart shows, for a screen reader or an image's alternative text. */
  summary: string;
}

/** Rough width of a label in the chart's font (px per character at the given size): enough to avoid overlaps. */
const textWidth = (text: string, size: number) => text.length * size * 0.6;

export function chartLayout(chart: Chart, { width = 640, height = 320, fontSize = 11 }: { width?: number; height?: number; fontSize?: number } = {}): ChartLayout {
  const scale = niceScale(chart.points.map((p) => p.y));
  const labels = scale.ticks.map((t) => tickLabel(t, scale.step));
  const left = Math.ceil(Math.max(...labels.map((l) => textWidth(l, fontSize)))) + fontSize * 2 + 8;
  const top = fontSize * 2.6;
  const bottom = fontSize * 4;
  const right = 12;
  const plot = { x: left, y: top, w: Math.max(40, width - left - right), h: Math.max(40, height - top - bottom) };
  const y = (v: number) => plot.y + plot.h - ((v - scale.min) / (scale.max - scale.min)) * plot.h;
  const n = chart.points.length;
  const band = plot.w / Math.max(1, n);
  const cx = (i: number) => plot.x + band * i + band / 2;
  const zeroY = y(0);
  const bars = chart.mark === "bar"
    ? chart.points.map((p, i) => ({ x: cx(i) - band * 0.35, y: Math.min(y(p.y), zeroY), w: band * 0.7, h: Math.abs(zeroY - y(p.y)), label: p.x, value: p.y }))
    : [];
  const points = chart.mark === "bar" ? [] : chart.points.map((p, i) => ({ x: cx(i), y: y(p.y), label: p.x, value: p.y }));
  // Every k-th x label, so that labels of about 10 characters do not overlap.
  const maxChars = Math.max(3, Math.min(14, Math.floor(band / (fontSize * 0.6)) - 1));
  const longest = Math.max(...chart.points.map((p) => Math.min(p.x.length, 14)));
  const every = Math.max(1, Math.ceil((Math.min(longest, 14) * fontSize * 0.6 + 6) / band));
  const xLabels = chart.points.flatMap((p, i) => (i % every === 0 ? [{ x: cx(i), text: clip(p.x, every > 1 ? 14 : maxChars), full: p.x }] : []));
  const min = Math.min(...chart.points.map((p) => p.y));
  const max = Math.max(...chart.points.map((p) => p.y));
  const kind = chart.mark === "bar" ? "Bar chart" : chart.mark === "line" ? "Line chart" : "Scatter chart";
  const shown = chart.points.slice(0, 12).map((p) => `${p.x} ${valueLabel(p.y)}`).join(", ");
  return {
    width,
    height,
    mark: chart.mark,
    title: { text: chart.title, x: width / 2, y: fontSize * 1.3 },
    plot,
    yTicks: scale.ticks.map((v, i) => ({ value: v, label: labels[i], y: y(v) })),
    zeroY,
    bars,
    points,
    xLabels,
    xTitle: { text: chart.x, x: plot.x + plot.w / 2, y: height - fontSize * 0.6 },
    yTitle: { text: chart.y, x: fontSize * 1.1, y: plot.y + plot.h / 2 },
    summary: `${kind} "${chart.title}": ${chart.y} (y, ${tickLabel(scale.min, scale.step)} to ${tickLabel(scale.max, scale.step)}) by ${chart.x} (x), ${n} ${n === 1 ? "value" : "values"} from ${valueLabel(min)} to ${valueLabel(max)}: ${shown}${n > 12 ? ", …" : ""}.`,
  };
}
