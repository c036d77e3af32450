// A chart from the analysis agent's Vega-Lite spec, drawn as plain SVG: bar, line or point over the
// spec's inline data and its x/y encoding. A full Vega renderer (vega + vega-lite, several hundred
// kB) is more than the conversation page's weight budget allows for the few marks the agent uses;
// the stored spec stays standard Vega-Lite, so any Vega viewer shows the same chart.
import type { DrCell, DrChartSpec } from "@/lib/client/deep-research-state";

const W = 480;
const H = 220;
const PAD = { left: 56, right: 12, top: 12, bottom: 44 };

const label = (v: DrCell) => (v === null ? "∅" : typeof v === "number" ? v.toLocaleString("en") : String(v));

export function ResultChart({ spec }: { spec: DrChartSpec }) {
  const { x, y } = spec.encoding;
  const points = spec.data.values.map((row) => ({ x: row[x.field], y: Number(row[y.field]) })).filter((p) => Number.isFinite(p.y)).slice(0, 200);
  if (points.length === 0) return null;
  const max = Math.max(0, ...points.map((p) => p.y));
  const min = Math.min(0, ...points.map((p) => p.y));
  const span = max - min || 1;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / points.length;
  const px = (i: number) => PAD.left + step * i + step / 2;
  const py = (v: number) => PAD.top + plotH - ((v - min) / span) * plotH;
  const title = spec.title ?? `${y.field} by ${x.field}`;
  return (
    <figure className="mt-2" data-testid="dr-chart" data-mark={spec.mark}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} className="h-auto w-full max-w-lg text-accent">
        <line x1={PAD.left} x2={W - PAD.right} y1={py(0)} y2={py(0)} className="stroke-border" />
        <text x={PAD.left - 6} y={py(max) + 4} textAnchor="end" className="fill-current text-[10px] text-muted">{label(max)}</text>
        {min < 0 ? <text x={PAD.left - 6} y={py(min) + 4} textAnchor="end" className="fill-current text-[10px] text-muted">{label(min)}</text> : null}
        {spec.mark === "line" ? (
          <polyline fill="none" stroke="currentColor" strokeWidth={2} points={points.map((p, i) => `${px(i)},${py(p.y)}`).join(" ")} />
        ) : null}
        {points.map((p, i) => (
          <g key={i}>
            {spec.mark === "bar" ? (
              <rect x={px(i) - step * 0.35} width={step * 0.7} y={Math.min(py(p.y), py(0))} height={Math.abs(py(0) - py(p.y))} fill="currentColor" opacity={0.8}>
                <title>{`${label(p.x)}: ${label(p.y)}`}</title>
              </rect>
            ) : (
              <circle cx={px(i)} cy={py(p.y)} r={3} fill="currentColor"><title>{`${label(p.x)}: ${label(p.y)}`}</title></circle>
            )}
            {points.length <= 24 ? <text x={px(i)} y={H - PAD.bottom + 14} textAnchor="middle" className="fill-current text-[10px] text-muted">{label(p.x).slice(0, 10)}</text> : null}
          </g>
        ))}
        <text x={PAD.left + plotW / 2} y={H - 6} textAnchor="middle" className="fill-current text-[11px] text-muted">{x.field}</text>
      </svg>
      <figcaption className="text-xs text-muted">{title}</figcaption>
    </figure>
  );
}
