// The analysis chart's scale and geometry (chart-layout.ts), shared by the page and every export:
// zero always on the axis, nice ticks (1, 2, 2.5, 5 × 10^k) covering every value, labels without
// float noise, bars standing on the zero baseline, x labels thinned rather than overlapping; and the
// SVG and PNG drawn from it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { chartFromSpec, chartLayout, niceScale, tickLabel, type Chart } from "./chart-layout";
import { chartSvg } from "./chart-svg";
import { chartPng } from "./chart-png";

const isNice = (step: number) => [1, 2, 2.5, 5].some((m) => Math.abs(step / 10 ** Math.floor(Math.log10(step)) - m) < 1e-9);

test("the y scale holds zero and every value, between nice ticks that are multiples of one step", () => {
  const cases: number[][] = [[412, 380, 290, 501], [-3, 7], [0.2, 0.35], [1_234_567, 9], [-50, -10], [5, 5, 5], [0.00042, 0.0011], [98.6]];
  for (const values of cases) {
    const s = niceScale(values);
    assert.ok(s.ticks.includes(0), `${values}: 0 is a tick (${s.ticks})`);
    assert.ok(s.min <= Math.min(0, ...values) && s.max >= Math.max(0, ...values), `${values}: the axis covers them (${s.min}..${s.max})`);
    assert.ok(isNice(s.step), `${values}: nice step ${s.step}`);
    assert.ok(s.ticks.length >= 3 && s.ticks.length <= 11, `${values}: ${s.ticks.length} ticks`);
    for (let i = 1; i < s.ticks.length; i++) assert.ok(Math.abs(s.ticks[i] - s.ticks[i - 1] - s.step) < s.step * 1e-9, `${values}: even steps`);
  }
  assert.deepEqual(niceScale([412, 380, 290, 501]).ticks, [0, 100, 200, 300, 400, 500, 600]);
  assert.deepEqual(niceScale([-3, 7]).ticks, [-4, -2, 0, 2, 4, 6, 8]);
  assert.deepEqual(niceScale([0.1, 0.2]).ticks, [0, 0.05, 0.1, 0.15, 0.2], "no 0.15000000000000002");
  assert.deepEqual(niceScale([0, 0]).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1], "all zeros: a unit axis");
  assert.deepEqual(niceScale([]).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1]);
});

test("tick labels: as many decimals as the step has, thousands separated, millions compact", () => {
  assert.equal(tickLabel(0.15, 0.05), "0.15");
  assert.equal(tickLabel(7.5, 2.5), "7.5");
  assert.equal(tickLabel(2500, 500), "2,500");
  assert.equal(tickLabel(1_250_000, 250_000), "1.25M");
  assert.equal(tickLabel(-4, 2), "-4");
});

const chart = (points: [string, number][], mark = "bar"): Chart => ({ title: "Total units by region", mark, x: "region", y: "total", points: points.map(([x, y]) => ({ x, y })) });

test("the layout: bars on the zero baseline (down for negatives), ticks in order, titles and a text alternative", () => {
  const l = chartLayout(chart([["north", 412], ["south", -80], ["east", 0]]), { width: 640, height: 320 });
  const zero = l.yTicks.find((t) => t.value === 0)!;
  assert.equal(l.zeroY, zero.y, "the baseline is the zero tick");
  const [north, south, east] = l.bars;
  assert.ok(Math.abs(north.y + north.h - l.zeroY) < 1e-9 && north.h > 0, "a positive bar rises from zero");
  assert.ok(Math.abs(south.y - l.zeroY) < 1e-9 && south.h > 0, "a negative bar hangs from zero");
  assert.equal(east.h, 0);
  for (let i = 1; i < l.yTicks.length; i++) assert.ok(l.yTicks[i].y < l.yTicks[i - 1].y, "larger values higher up");
  assert.ok(l.yTicks[0].y <= l.plot.y + l.plot.h + 1e-9 && l.yTicks.at(-1)!.y >= l.plot.y - 1e-9, "ticks inside the plot");
  assert.equal(l.xTitle.text, "region");
  assert.equal(l.yTitle.text, "total");
  assert.equal(l.title.text, "Total units by region");
  assert.match(l.summary, /^Bar chart "Total units by region": total \(y, -100 to 500\) by region \(x\), 3 values from -80 to 412: north 412, south -80, east 0\.$/);
  assert.ok(l.plot.x + l.plot.w <= 640 && l.plot.y + l.plot.h <= 320, "the plot fits");
});

test("x labels are thinned so that they do not overlap; a line chart has points, no bars", () => {
  const many = chart(Array.from({ length: 120 }, (_, i) => [`2024-${String(i).padStart(3, "0")}`, i] as [string, number]), "line");
  const l = chartLayout(many, { width: 640, height: 320, fontSize: 11 });
  assert.equal(l.bars.length, 0);
  assert.equal(l.points.length, 120);
  assert.ok(l.xLabels.length < 120 && l.xLabels.length >= 5, `${l.xLabels.length} labels`);
  for (let i = 1; i < l.xLabels.length; i++) assert.ok(l.xLabels[i].x - l.xLabels[i - 1].x >= l.xLabels[i - 1].text.length * 11 * 0.6, "no overlap");
});

test("the spec the analysis agent writes becomes a chart; anything else is none", () => {
  const spec = { title: "Units", mark: "line", data: { values: [{ m: "jan", u: 3 }, { m: "feb", u: null }, { m: null, u: "7" }] }, encoding: { x: { field: "m" }, y: { field: "u" } } };
  assert.deepEqual(chartFromSpec(spec), { title: "Units", mark: "line", x: "m", y: "u", points: [{ x: "jan", y: 3 }, { x: "∅", y: 7 }] });
  assert.equal(chartFromSpec({ mark: "bar" }), null);
  assert.equal(chartFromSpec(null), null);
  assert.equal(chartFromSpec({ ...spec, data: { values: [{ m: "a", u: "n/a" }] } }), null, "no numeric value, no chart");
});

test("the SVG names and describes itself and draws every tick and mark; the PNG is a valid image", () => {
  const c = chart([["north", 412], ["south & co", 380]]);
  const svg = chartSvg(c);
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"') && svg.endsWith("</svg>"));
  assert.ok(svg.includes("<title>Total units by region</title>") && svg.includes("<desc>Bar chart"));
  assert.ok(svg.includes(">south &amp; co<"), "text escaped");
  for (const t of ["0", "100", "200", "300", "400", "500"]) assert.ok(svg.includes(`>${t}</text>`), `tick ${t}`);
  assert.equal((svg.match(/<rect [^>]*fill="#0b57d0"/g) ?? []).length, 2);
  const png = chartPng(c, { width: 200, height: 100 });
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.readUInt32BE(16), 200);
  assert.equal(png.readUInt32BE(20), 100);
});
