// Checks of the fake SearXNG and the fixture web server. Registered by fakes.test.ts.
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { extractText, getDocumentProxy } from "unpdf";
import { FakeWeb, type Fakes, type SearchResponse } from "./index";

export function registerWebChecks(get: () => Fakes): void {
  const search = async (q: string, format = "json") => fetch(`${get().search.url}/search?${new URLSearchParams({ q, format })}`);
  const results = async (q: string) => ((await (await search(q)).json()) as SearchResponse).results;
  const web = (path: string, init?: RequestInit) => fetch(get().web.baseUrl + path, init);

  describe("fake SearXNG", () => {
    beforeEach(() => get().search.reset());

    test("real JSON shape, more than 7 results, one URL twice from two engines, deterministic", async () => {
      const body = (await (await search("heat pumps in cold climates")).json()) as SearchResponse;
      assert.equal(body.query, "heat pumps in cold climates");
      assert.equal(typeof body.number_of_results, "number");
      assert.equal(body.results.length, 9);
      for (const r of body.results) {
        assert.ok(r.url.startsWith(get().web.baseUrl) && r.title && r.content && r.engine && typeof r.score === "number");
      }
      const urls = body.results.map((r) => r.url);
      const dup = urls.find((u, i) => urls.indexOf(u) !== i);
      assert.ok(dup, "a duplicate URL");
      const engines = body.results.filter((r) => r.url === dup).map((r) => r.engine);
      assert.notEqual(engines[0], engines[1]);
      assert.equal(new Set(urls).size, 8, "still more than 7 after dedupe");
      assert.deepEqual(await results("heat pumps in cold climates"), body.results);
      assert.deepEqual(get().search.log.map((e) => e.q), ["heat pumps in cold climates", "heat pumps in cold climates"]);
    });

    test("queries share URLs; failing pages appear unless failingPageShare is 0", async () => {
      const queries = Array.from({ length: 12 }, (_, i) => `topic aspect 1.${i}`);
      const lists = await Promise.all(queries.map(results));
      const seen = new Map<string, number>();
      for (const list of lists) for (const url of new Set(list.map((r) => r.url))) seen.set(url, (seen.get(url) ?? 0) + 1);
      assert.ok([...seen.values()].some((n) => n > 1), "some URL is found by more than one query");
      const failing = new Set(get().web.failingPages());
      assert.ok(lists.flat().some((r) => failing.has(r.url)), "some failing page among the results");
      const bait = get().web.failingPages({ includeSsrfBait: true }).filter((u) => !failing.has(u));
      assert.equal(bait.length, 2);
      assert.ok(lists.flat().every((r) => !bait.includes(r.url)), "never SSRF bait in results");
      get().search.configure({ failingPageShare: 0 });
      const clean = await Promise.all(queries.map(results));
      assert.ok(clean.flat().every((r) => !failing.has(r.url)));
    });

    test("format=json required; fail, hang and latency rules", async () => {
      assert.equal((await search("x", "html")).status, 403);
      get().search.configure({ failRules: [{ match: "^broken", status: 503 }], hangRules: [{ match: "stuck" }], latencyRules: [{ match: "slow", latencyMs: 200 }] });
      assert.equal((await search("broken query")).status, 503);
      assert.equal((await search("fine query")).status, 200);
      await assert.rejects(fetch(`${get().search.url}/search?q=stuck&format=json`, { signal: AbortSignal.timeout(150) }));
      const started = Date.now();
      await search("slow query");
      assert.ok(Date.now() - started >= 190);
    });
  });

  describe("fixture web server", () => {
    beforeEach(() => get().web.reset());

    test("24 distinct realistic article pages, a text page and a PDF", async () => {
      const pages = get().web.pages();
      const articles = pages.filter((u) => u.includes("/articles/"));
      assert.ok(articles.length >= 24);
      const titles = new Set<string>();
      for (const url of articles) {
        const res = await fetch(url);
        assert.equal(res.status, 200);
        assert.match(res.headers.get("content-type") ?? "", /text\/html/);
        const html = await res.text();
        for (const part of ["<header", "<nav", "cookie", "<script", "<aside", "<article>", "<h1>", "<footer"]) assert.ok(html.includes(part), `${url} has ${part}`);
        titles.add(/<h1>(.*?)<\/h1>/.exec(html)?.[1] ?? "");
        assert.ok((html.match(/\d/g) ?? []).length > 20, "concrete numbers");
      }
      assert.equal(titles.size, articles.length);
      const text = await web("/text/notes.txt");
      assert.match(text.headers.get("content-type") ?? "", /^text\/plain/);
      assert.match(await text.text(), /412 samples/);
      assert.equal(get().web.fetchCount(articles[0]), 1);
    });

    test("the PDF is valid: header, xref offsets, text extractable by pdf.js", async () => {
      const bytes = Buffer.from(await (await web("/docs/report.pdf")).arrayBuffer());
      assert.equal(bytes.subarray(0, 5).toString("latin1"), "%PDF-");
      const raw = bytes.toString("latin1");
      const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(raw)?.[1]);
      assert.equal(raw.slice(startxref, startxref + 4), "xref");
      const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(raw.slice(startxref)) ?? [];
      assert.equal(first, "0");
      const table = raw.slice(startxref + `xref\n0 ${count}\n`.length);
      for (let i = 1; i < Number(count); i++) {
        const offset = Number(table.slice(i * 20, i * 20 + 10));
        assert.equal(raw.slice(offset, offset + `${i} 0 obj`.length), `${i} 0 obj`);
      }
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
      assert.match(text, /218 million passengers/);
    });

    test("failing pages behave as stated", async () => {
      assert.equal((await web("/fail/403")).status, 403);
      assert.equal((await web("/fail/500")).status, 500);
      await assert.rejects(web("/fail/hang", { signal: AbortSignal.timeout(150) }));
      let started = Date.now();
      assert.equal((await web("/fail/slow?ms=120")).status, 200);
      assert.ok(Date.now() - started >= 110);
      const binary = await web("/fail/binary");
      assert.equal(binary.headers.get("content-type"), "application/octet-stream");
      assert.ok((await binary.arrayBuffer()).byteLength > 1000);
      const png = await web("/fail/image.png");
      assert.equal(png.headers.get("content-type"), "image/png");
      assert.equal(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString(), "PNG");
      started = Date.now();
      const huge = await web("/fail/huge");
      assert.equal(huge.headers.get("content-length"), null);
      assert.equal((await huge.arrayBuffer()).byteLength, 20 * 1024 * 1024);
      assert.ok(Date.now() - started < 5_000);
      const loop = await web("/fail/redirect-loop", { redirect: "manual" });
      assert.equal(loop.status, 302);
      await assert.rejects(web("/fail/redirect-loop"), "fetch gives up on the loop");
      // Only read the Location: these targets must never be contacted.
      assert.equal((await web("/redirect/private", { redirect: "manual" })).headers.get("location"), "http://10.0.0.1/");
      assert.equal((await web("/redirect/metadata", { redirect: "manual" })).headers.get("location"), "http://169.254.169.254/latest/meta-data/");
      const ok = await web("/redirect/ok");
      assert.ok(ok.redirected && ok.url.includes("/articles/") && ok.status === 200);
      const empty = await (await web("/fail/empty")).text();
      assert.equal(empty.replace(/<(script|style)[\s\S]*?<\/\1>/g, "").replace(/<[^>]+>/g, "").trim(), "");
      assert.equal(get().web.fetchCount("/fail/403"), 1);
    });

    test("stop() finishes while a request hangs", async () => {
      const own = new FakeWeb();
      await own.start();
      const pending = fetch(`${own.baseUrl}/fail/hang`).then(
        () => "answered",
        () => "closed",
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      await own.stop();
      assert.ok(Date.now() - started < 1_000);
      assert.equal(await pending, "closed");
    });
  });
}
