"use client";
// A chart from the analysis agent's Vega-Lite spec, drawn as plain SVG from the geometry every
// export draws too (lib/exports/chart-layout.ts): its title, a y axis of nice ticks with grid lines
// that always holds zero, the zero baseline, bars, a line or points, thinned x labels and both
// axis titles. A full Vega renderer (vega + vega-lite, several hundred kB) is more than the page's
// weight budget allows for the few marks the agent uses; the stored spec stays standard Vega-Lite.
// For a screen reader the figure is one image named by its title and described by a sentence of
// what it shows (its values are the result table's, next to it).
import { useEffect, useId, useRef, useState, type RefObject } from "react";
import type { DrChartSpec } from "@/lib/client/deep-research-state";
import { chartFromSpec, chartLayout, valueLabel } from "@/lib/exports/chart-layout";

const W = 640;

/** The figure's width in CSS pixels, so that the chart is laid out at its size (its text stays 12 px on a phone). */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(W);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry.contentRect.width);
      if (w > 0) setWidth(Math.max(280, Math.min(W, w)));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export function ResultChart({ spec }: { spec: DrChartSpec }) {
  const id = useId();
  const figure = useRef<HTMLElement>(null);
  const width = useWidth(figure);
  const chart = chartFromSpec(spec);
  if (!chart) return null;
  const H = Math.round(Math.max(220, Math.min(300, width * 0.5)));
  const l = chartLayout(chart, { width, height: H, fontSize: 12 });
  const { plot } = l;
  return (
    <figure ref={figure} className="mt-1 min-w-0 max-w-2xl" data-testid="dr-chart" data-mark={chart.mark}>
      <svg viewBox={`0 0 ${width} ${H}`} role="img" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} className="h-auto w-full text-accent" data-testid="dr-chart-svg">
        <title id={`${id}-t`}>{chart.title}</title>
        <desc id={`${id}-d`}>{l.summary}</desc>
        <text x={l.title.x} y={l.title.y} textAnchor="middle" className="fill-fg text-[14px] font-semibold" data-testid="dr-chart-title">{l.title.text}</text>
        <g data-testid="dr-chart-yticks">
          {l.yTicks.map((t) => (
            <g key={t.value} data-value={t.value}>
              <line x1={plot.x} x2={plot.x + plot.w} y1={t.y} y2={t.y} className="stroke-border" strokeWidth={0.8} />
              <line x1={plot.x - 4} x2={plot.x} y1={t.y} y2={t.y} className="stroke-muted" />
              <text x={plot.x - 7} y={t.y + 4} textAnchor="end" className="fill-muted text-[12px] tabular-nums">{t.label}</text>
            </g>
          ))}
        </g>
        <line x1={plot.x} x2={plot.x} y1={plot.y} y2={plot.y + plot.h} className="stroke-muted" />
        {l.bars.map((b, i) => (
          <rect key={i} x={b.x} y={b.y} width={b.w} height={Math.max(b.h, 0.5)} fill="currentColor" opacity={0.85}>
            <title>{`${b.label}: ${valueLabel(b.value)}`}</title>
          </rect>
        ))}
        {l.mark === "line" && l.points.length > 1 ? <polyline fill="none" stroke="currentColor" strokeWidth={2} points={l.points.map((p) => `${p.x},${p.y}`).join(" ")} /> : null}
        {l.points.map((p, i) => (
          <circle key={i} cx={p.x} cy={p.y} r={3.5} fill="currentColor"><title>{`${p.label}: ${valueLabel(p.value)}`}</title></circle>
        ))}
        <line x1={plot.x} x2={plot.x + plot.w} y1={l.zeroY} y2={l.zeroY} className="stroke-fg" strokeWidth={1.2} data-testid="dr-chart-zero" />
        {l.xLabels.map((x, i) => (
          <g key={i}>
            <line x1={x.x} x2={x.x} y1={plot.y + plot.h} y2={plot.y + plot.h + 4} className="stroke-muted" />
            <text x={x.x} y={plot.y + plot.h + 18} textAnchor="middle" className="fill-muted text-[12px]">{x.text}{x.text !== x.full ? <title>{x.full}</title> : null}</text>
          </g>
        ))}
        <text x={l.xTitle.x} y={l.xTitle.y} textAnchor="middle" className="fill-fg text-[12px] font-semibold" data-testid="dr-chart-xtitle">{l.xTitle.text}</text>
        <text transform={`translate(${l.yTitle.x} ${l.yTitle.y}) rotate(-90)`} textAnchor="middle" className="fill-fg text-[12px] font-semibold" data-testid="dr-chart-ytitle">{l.yTitle.text}</text>
      </svg>
      <figcaption className="text-xs text-muted">Chart: {chart.title}</figcaption>
    </figure>
  );
}
