// The code's side of citation verification: which sentences are claims, quotes checked verbatim,
// one verdict per sentence, the support rate, and the repair's edits to the Markdown.
import assert from "node:assert/strict";
import { test } from "node:test";
import { claimsOf, reportBody } from "./claims";
import { applyRepairs } from "./repair";
import { sourceWindow } from "./source-window";
import { bestOf, checkVerdict, countVerdicts, supportRate } from "./verdicts";

const A = "https://a.example/battery";
const B = "https://b.example/grid";
const REPORT = `# Report: storage

This report answers the question from 2 sources. In short: prices fell 20% in 2023 [1](${A}).

## Key findings

- Capacity doubled to 40 GW [2](${B}). Output fell by 95% in a single year [1](${A}).
- Installations reached 12 GW in 2024.

| a | b |
|---|---|

## Sources

1. Battery — <${A}>
2. Grid — <${B}>
`;

test("claims are the sentences of prose and list items, with their cited URLs; headings, tables and the source list are not", () => {
  const { body, sourceTitles } = reportBody(REPORT);
  assert.equal(sourceTitles.get(A), "Battery");
  const claims = claimsOf(body);
  assert.deepEqual(
    claims.map((c) => [c.text, c.urls]),
    [
      ["This report answers the question from 2 sources.", []],
      ["In short: prices fell 20% in 2023.", [A]],
      ["Capacity doubled to 40 GW.", [B]],
      ["Output fell by 95% in a single year.", [A]],
      ["Installations reached 12 GW in 2024.", []],
    ],
  );
  for (const c of claims) assert.equal(body.slice(c.start, c.end), c.markdown, "offsets point at the sentence");
});

test("a supporting quote must occur verbatim in the source's stored text; otherwise the verdict is rejected", () => {
  const text = "In 2023 battery pack prices fell 20%, to “$139” per kWh.\nOther news.";
  const ok = checkVerdict({ verdict: "supported", quote: 'battery pack prices fell 20%, to "$139"  per kWh.', explanation: "" }, text, A);
  assert.equal(ok.verdict, "supported");
  assert.equal(ok.quoteUrl, A);
  const invented = checkVerdict({ verdict: "supported", quote: "battery pack prices fell 25% in 2023", explanation: "" }, text, A);
  assert.equal(invented.verdict, "unsupported");
  assert.match(invented.note ?? "", /does not occur/);
  assert.equal(invented.quote, null);
  assert.equal(checkVerdict({ verdict: "partial", quote: "fell 20%", explanation: "" }, text, A).verdict, "unsupported", "too short to show anything");
  assert.equal(checkVerdict({ verdict: "partial", quote: "battery pack prices fell 20%", explanation: "" }, text, A).verdict, "partial");
});

test("a sentence citing several sources takes its best-supporting source's verdict", () => {
  assert.equal(bestOf([{ verdict: "unsupported" as const }, { verdict: "partial" as const }])?.verdict, "partial");
  assert.equal(bestOf([{ verdict: "supported" as const }, { verdict: "unsupported" as const }])?.verdict, "supported");
});

test("the support rate is the share of claims (cited and uncited factual) fully supported", () => {
  const counts = countVerdicts([{ verdict: "supported" }, { verdict: "supported" }, { verdict: "partial" }, { verdict: "unsupported" }, { verdict: "uncited" }]);
  assert.deepEqual(counts, { claims: 5, supported: 2, partial: 1, unsupported: 1, uncited: 1 });
  assert.equal(supportRate(counts), 0.4);
  assert.equal(supportRate(countVerdicts([])), null);
});

test("the repair removes or rewrites exactly the sentence, keeps its citations, and renumbers the sources", () => {
  const { body, sourceTitles } = reportBody(REPORT);
  const claims = claimsOf(body);
  const removed = applyRepairs(body, claims, [{ position: 1, action: "remove" }, { position: 3, action: "remove" }], sourceTitles);
  assert.ok(!removed.includes("Output fell") && !removed.includes("prices fell"));
  assert.ok(removed.includes(`- Capacity doubled to 40 GW [1](${B}).`), "the list item keeps its other sentence, renumbered");
  assert.ok(removed.includes("from 2 sources.\n"));
  assert.ok(removed.endsWith(`## Sources\n\n1. Grid — <${B}>\n`), "A is no longer cited, so it leaves the list");

  const rewritten = applyRepairs(body, claims, [{ position: 3, action: "rewrite", sentence: "Output fell by 9% in one year [7](https://x.example)." }], sourceTitles);
  assert.ok(rewritten.includes(`Output fell by 9% in one year [1](${A}).`), rewritten);
  assert.ok(!rewritten.includes("x.example"), "the rewrite cannot bring its own citation");

  const lone = applyRepairs(body, claims, [{ position: 4, action: "remove" }], sourceTitles);
  assert.ok(!/^- *$/m.test(lone), "no empty list item is left");
});

test("a long source is cut to the paragraphs about the sentences, in page order", () => {
  const filler = Array.from({ length: 50 }, (_, i) => `Unrelated paragraph ${i} about gardening and weather patterns.`);
  const text = [...filler.slice(0, 25), "Battery prices fell twenty percent during the year.", ...filler.slice(25)].join("\n");
  const window = sourceWindow(text, ["Battery prices fell"], 100);
  assert.ok(window.includes("Battery prices fell twenty percent"));
  assert.ok(window.length <= 400);
  assert.equal(sourceWindow("short", ["x"], 100), "short");
});
