// The raster fallback a DOCX drawing needs beside its SVG (Word before 2016 shows it instead): the
// chart's grid, axes, zero baseline and marks painted into a PNG with Node's zlib. It has no text —
// a reader of that old a Word sees the title, the axis names and the values in the caption and the
// query's table next to it; every newer reader shows the SVG with its labels.
import zlib from "node:zlib";
import { chartLayout, type Chart } from "./chart-layout";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

type Rgb = [number, number, number];
const hex = (h: string): Rgb => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];

export function chartPng(chart: Chart, { width = 640, height = 320 } = {}): Buffer {
  const l = chartLayout(chart, { width, height });
  const px = new Uint8Array(width * height * 3).fill(255);
  const set = (x: number, y: number, c: Rgb) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (y * width + x) * 3;
    px[i] = c[0];
    px[i + 1] = c[1];
    px[i + 2] = c[2];
  };
  const rect = (x: number, y: number, w: number, h: number, c: Rgb) => {
    for (let j = Math.round(y); j < Math.round(y + h); j++) for (let i = Math.round(x); i < Math.round(x + w); i++) set(i, j, c);
  };
  const line = (x0: number, y0: number, x1: number, y1: number, c: Rgb) => {
    const steps = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0)));
    for (let s = 0; s <= steps; s++) rect(x0 + ((x1 - x0) * s) / steps - 1, y0 + ((y1 - y0) * s) / steps - 1, 2, 2, c);
  };
  const { plot } = l;
  for (const t of l.yTicks) rect(plot.x - 4, t.y, plot.w + 4, 1, hex("#d0d7de"));
  rect(plot.x, plot.y, 1, plot.h, hex("#59636e"));
  for (const b of l.bars) rect(b.x, b.y, b.w, Math.max(1, b.h), hex("#0b57d0"));
  if (l.mark === "line") for (let i = 1; i < l.points.length; i++) line(l.points[i - 1].x, l.points[i - 1].y, l.points[i].x, l.points[i].y, hex("#0b57d0"));
  for (const p of l.points) for (let j = -3; j <= 3; j++) for (let i = -3; i <= 3; i++) if (i * i + j * j <= 9) set(Math.round(p.x) + i, Math.round(p.y) + j, hex("#0b57d0"));
  rect(plot.x, l.zeroY, plot.w, 1, hex("#1f2328"));
  for (const x of l.xLabels) rect(x.x, plot.y + plot.h, 1, 4, hex("#59636e"));
  // Each row: filter byte 0, then its RGB pixels.
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) Buffer.from(px.subarray(y * width * 3, (y + 1) * width * 3)).copy(raw, y * (width * 3 + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(raw)), chunk("IEND", new Uint8Array())]);
}
