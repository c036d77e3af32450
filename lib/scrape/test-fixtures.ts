// Test fixtures for the scraper: a loopback web server with one route per behaviour, and a tiny PDF.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";

/** A minimal valid PDF 1.4: one page showing `text`, an /Info title, and exact xref offsets. */
export function buildPdf(text: string, title: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Title (${title}) >>`,
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const PARAGRAPH =
  "Deep research tools read many sources, and each source must be reduced to the words its author wrote. " +
  "Menus, cookie banners and footers are noise that costs tokens and misleads the model that reads the page. ";

export const ARTICLE_HTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Reading the web carefully</title>
<script>window.trackingSecret = "do-not-keep";</script><style>body { color: red }</style></head>
<body>
  <nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/shop">Shop</a></nav>
  <article>
    <h1>Reading the web carefully</h1>
    <p>${PARAGRAPH.repeat(3)}</p>
    <p>Second paragraph:   spaced\n\n   out text that should collapse. ${PARAGRAPH}</p>
  </article>
  <footer>Copyright 2025 Example Corp. All rights reserved.</footer>
  <script>console.log("late script")</script>
</body></html>`;

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

function send(res: http.ServerResponse, status: number, type: string | null, body: string | Buffer): void {
  if (type) res.setHeader("Content-Type", type);
  res.writeHead(status);
  res.end(body);
}

function redirect(res: http.ServerResponse, location: string): void {
  res.writeHead(302, { Location: location });
  res.end();
}

const routes: Record<string, Route> = {
  "/article": (_q, s) => send(s, 200, "text/html; charset=utf-8", ARTICLE_HTML),
  "/plain": (_q, s) => send(s, 200, "text/plain", "Line one.\n\n  Indented line two.\r\n"),
  "/markdown": (_q, s) => send(s, 200, "text/markdown; charset=utf-8", "# Title\n\n- item *one*\n"),
  "/latin1": (_q, s) => send(s, 200, "text/html", Buffer.from('<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e</p></body></html>', "latin1")),
  "/untyped": (_q, s) => send(s, 200, null, "<!doctype html><title>No type</title><p>Sniffed as HTML.</p>"),
  "/doc.pdf": (_q, s) => send(s, 200, "application/pdf", buildPdf("Hello from a PDF", "Fixture PDF")),
  "/pdf-as-octets": (_q, s) => send(s, 200, "application/octet-stream", buildPdf("Magic bytes win", "Octets")),
  "/image.png": (_q, s) => send(s, 200, "image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])),
  "/blob": (_q, s) => send(s, 200, "application/octet-stream", Buffer.from([0, 1, 2, 3, 4, 5, 250, 251])),
  "/empty": (_q, s) => send(s, 200, "text/html", "<html><head><title>Nothing</title></head><body><script>x()</script></body></html>"),
  "/forbidden": (_q, s) => send(s, 403, "text/html", "<h1>Go away</h1>"),
  "/broken": (_q, s) => send(s, 500, "text/plain", "stack trace with secrets"),
  "/gzip": (_q, s) => {
    s.writeHead(200, { "Content-Type": "text/html", "Content-Encoding": "gzip" });
    s.end(zlib.gzipSync(ARTICLE_HTML));
  },
  "/gzip-bomb": (_q, s) => {
    s.writeHead(200, { "Content-Type": "text/plain", "Content-Encoding": "gzip" });
    s.end(zlib.gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x61)));
  },
  "/big": (_q, s) => {
    s.writeHead(200, { "Content-Type": "text/plain" });
    const chunk = "x".repeat(64 * 1024);
    for (let i = 0; i < 8; i++) s.write(chunk);
    s.end();
  },
  // Declares a huge body, then sends nothing: only an early refusal avoids waiting for the timeout.
  "/declared-big": (_q, s) => {
    s.writeHead(200, { "Content-Type": "text/plain", "Content-Length": String(50 * 1024 * 1024) });
    s.flushHeaders();
  },
  "/hang": () => {},
  "/slow-body": (_q, s) => {
    s.writeHead(200, { "Content-Type": "text/html" });
    s.write("<html><body><p>The start of a page that never ends");
  },
  "/echo": (q, s) => send(s, 200, "text/plain", JSON.stringify(q.headers)),
  "/loop": (_q, s) => redirect(s, "/loop"),
  "/hop1": (_q, s) => redirect(s, "/hop2"),
  "/hop2": (_q, s) => redirect(s, "/article#section"),
  "/to-private-ip": (_q, s) => redirect(s, "http://10.0.0.5/admin"),
  "/to-intranet": (_q, s) => redirect(s, "http://intranet.test/secret"),
  "/to-file": (_q, s) => redirect(s, "file:///etc/passwd"),
};

export interface FixtureServer {
  origin: string;
  port: number;
  /** TCP connections accepted so far. */
  connections: () => number;
  /** Paths requested so far, in order. */
  paths: string[];
  close: () => Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  let connections = 0;
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? "");
    const route = routes[new URL(req.url ?? "/", "http://fixture").pathname];
    if (route) route(req, res);
    else send(res, 404, "text/plain", "not found");
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
