// The code's side of citation verification: which sentences are claims (in any script), quotes
// located by alignment and stored as the source's own span, a quote that must carry the claim's
// content, one verdict per sentence, the support rate, the repair's edits to the Markdown, and the
// view of the stored report.
import assert from "node:assert/strict";
import { test } from "node:test";
import { claimsOf, reportBody } from "./claims";
import { applyRepairs } from "./repair";
import { sourceWindow } from "./source-window";
import { locateQuote } from "./align";
import { carriedBy } from "./content";
import { bestOf, checkVerdict, countVerdicts, mostlyUnverified, supportRate } from "./verdicts";
import { toVerificationView, unverifiedNote } from "./view";

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

test("claims are the sentences of prose and list items, with their cited URLs; headings, table headers and the source list are not", () => {
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

test("a sentence citing several sources takes its best-supporting source's verdict; one that could not judge beats a judged unsupported", () => {
  assert.equal(bestOf([{ verdict: "unsupported" as const }, { verdict: "partial" as const }])?.verdict, "partial");
  assert.equal(bestOf([{ verdict: "supported" as const }, { verdict: "unsupported" as const }])?.verdict, "supported");
  assert.equal(bestOf([{ verdict: "unsupported" as const }, { verdict: "unverified" as const }])?.verdict, "unverified", "not judged unsupported by all its sources: not repaired");
  assert.equal(bestOf([{ verdict: "unverified" as const }, { verdict: "partial" as const }])?.verdict, "partial");
});

test("the support rate is the share of judged claims (cited and uncited factual) fully supported; unverified ones are counted apart", () => {
  const counts = countVerdicts([{ verdict: "supported" }, { verdict: "supported" }, { verdict: "partial" }, { verdict: "unsupported" }, { verdict: "uncited" }, { verdict: "unverified" }]);
  assert.deepEqual(counts, { claims: 6, supported: 2, partial: 1, unsupported: 1, uncited: 1, unverified: 1 });
  assert.equal(supportRate(counts), 0.4);
  assert.equal(mostlyUnverified(counts), false);
  assert.equal(supportRate(countVerdicts([])), null);
  const unjudged = countVerdicts([{ verdict: "unverified" }, { verdict: "unverified" }, { verdict: "supported" }]);
  assert.equal(supportRate(unjudged), 1);
  assert.equal(mostlyUnverified(unjudged), true);
  assert.equal(supportRate(countVerdicts([{ verdict: "unverified" }])), null, "nothing judged: no rate");
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

test("a citation marker keeps to its sentence, before or after the full stop; a full stop in a link ends no sentence", () => {
  const body = `Battery pack prices fell 20% in 2023 [1](${A}). Grid capacity doubled to 40 GW in Europe [2](${B}).
Battery pack prices fell 20% in 2023. [1](${A}) Grid capacity doubled to 40 GW in Europe. [2](${B})
The agency's [annual report v2.0. Final](https://x.example/a.b.C) says storage grew in 2024.`;
  const claims = claimsOf(body);
  assert.deepEqual(
    claims.map((c) => [c.text, c.urls]),
    [
      ["Battery pack prices fell 20% in 2023.", [A]],
      ["Grid capacity doubled to 40 GW in Europe.", [B]],
      ["Battery pack prices fell 20% in 2023.", [A]],
      ["Grid capacity doubled to 40 GW in Europe.", [B]],
      ["The agency's annual report v2.0. Final says storage grew in 2024.", ["https://x.example/a.b.C"]],
    ],
  );
  assert.ok(claims[2].markdown.endsWith(`[1](${A})`), "the marker after the full stop stays with the first sentence");
  for (const c of claims) assert.equal(body.slice(c.start, c.end), c.markdown, "offsets point at the sentence");
});

test("citations right after the full stop, with no space (as in print), stay with their sentence; a parenthesised one leaves no gap", () => {
  const body = `Battery pack prices fell 20% in 2023.[1](${A}) Grid capacity doubled to 40 GW in Europe.[1](${A})[2](${B})
- Storage grew to 4.2 GW in 2024.[2](${B})
Costs rose 5 percent in 2022 ([2](${B})).`;
  const claims = claimsOf(body);
  assert.deepEqual(
    claims.map((c) => [c.text, c.urls]),
    [
      ["Battery pack prices fell 20% in 2023.", [A]],
      ["Grid capacity doubled to 40 GW in Europe.", [A, B]],
      ["Storage grew to 4.2 GW in 2024.", [B]],
      ["Costs rose 5 percent in 2022.", [B]],
    ],
  );
  for (const c of claims) assert.equal(body.slice(c.start, c.end).trim(), c.markdown.trim(), "offsets point at the sentence");
});

test("a line or a paragraph's end of sources alone ('Sources: [1](…), [2](…)') covers the paragraph's sentences before it", () => {
  const covered = (body: string) => claimsOf(body).map((c) => [c.text, c.urls, c.covering ?? []]);
  const two = [
    ["Battery pack prices fell 20% in 2023.", [], [A, B]],
    ["Grid capacity doubled to 40 GW in Europe.", [], [A, B]],
  ];
  assert.deepEqual(covered(`Battery pack prices fell 20% in 2023. Grid capacity doubled to 40 GW in Europe.\nSources: [1](${A}), [2](${B})`), two);
  assert.deepEqual(covered(`Battery pack prices fell 20% in 2023. Grid capacity doubled to 40 GW in Europe.\n\n**References:** [1](${A}) and [2](${B})`), two);
  assert.deepEqual(covered(`Battery pack prices fell 20% in 2023. Grid capacity doubled to 40 GW in Europe. (Sources: [1](${A}), [2](${B}))`), two);
  // In the language the report is written in (lib/ai/language.ts): "Quellen:", "Sources :" with "et", "来源：" with "、".
  assert.deepEqual(covered(`Battery pack prices fell 20% in 2023. Grid capacity doubled to 40 GW in Europe.\n**Quellen:** [1](${A}) und [2](${B})`), two);
  assert.deepEqual(covered(`Battery pack prices fell 20% in 2023. Grid capacity doubled to 40 GW in Europe.\nSources : [1](${A}) et [2](${B})`), two);
  assert.deepEqual(covered(`Battery pack prices fell 20% in 2023. Grid capacity doubled to 40 GW in Europe.\n来源：[1](${A})、[2](${B})`), two);
  // A sentence cited on its own keeps its citation; a heading between ends the paragraph; words make it no sources line.
  assert.deepEqual(covered(`Battery pack prices fell 20% in 2023 [2](${B}). Grid capacity doubled to 40 GW in Europe.\nSources: [1](${A})`), [
    ["Battery pack prices fell 20% in 2023.", [B], []],
    ["Grid capacity doubled to 40 GW in Europe.", [], [A]],
  ]);
  assert.deepEqual(covered(`Battery pack prices fell 20% in 2023.\n## Next\nSources: [1](${A})`), [["Battery pack prices fell 20% in 2023.", [], []]]);
  assert.deepEqual(covered(`Battery pack prices fell 20% in 2023.\nSee the agency's figures [1](${A})`), [
    ["Battery pack prices fell 20% in 2023.", [], []],
    ["See the agency's figures", [A], []],
  ]);
});

test("Chinese, Japanese and Thai reports have claims, split by the Unicode segmenter, with exact offsets", () => {
  const body = `# 储能报告

电池组价格在2023年下降了20% [1](${A})。欧洲的储能容量翻了一番，达到40吉瓦 [2](${B})。

- 蓄電池の価格は2023年に20%下落した [1](${A})。容量は倍増した。
- ราคาแบตเตอรี่ลดลงร้อยละ 20 ในปี 2023 [1](${A})
`;
  const claims = claimsOf(body);
  assert.deepEqual(
    claims.map((c) => [c.text, c.urls]),
    [
      ["电池组价格在2023年下降了20%。", [A]],
      ["欧洲的储能容量翻了一番，达到40吉瓦。", [B]],
      ["蓄電池の価格は2023年に20%下落した。", [A]],
      ["容量は倍増した。", []],
      ["ราคาแบตเตอรี่ลดลงร้อยละ 20 ในปี 2023", [A]],
    ],
  );
  for (const c of claims) assert.equal(body.slice(c.start, c.end), c.markdown);
});

// A page as stored: typographic quotes, dashes, a line break inside a sentence.
const PAGE = `Market update — storage
In 2023, battery pack prices fell 20 percent to “$139” per kWh, the survey of 42 manufacturers found.
Grid-scale capacity in Europe doubled between 2021 and 2023,
reaching 40 gigawatts; analysts expect further growth.
According to the agency, demand rose. Installations reached 1,200 MW in Spain.`;

function located(quote: string) {
  const hit = locateQuote(quote, PAGE);
  assert.ok(hit, `located: ${quote}`);
  for (const s of hit.spans) assert.ok(s.start >= hit.start && s.end <= hit.end && s.start < s.end);
  assert.equal(PAGE.slice(hit.start, hit.end), hit.text);
  return hit;
}

test("a quote is located by alignment and stored as the source's own span", () => {
  // Changed punctuation and typographic quotes: the page's own text is kept.
  const punct = located('battery pack prices fell 20 percent to "$139" per kWh the survey of 42 manufacturers found.');
  assert.equal(punct.text, "battery pack prices fell 20 percent to “$139” per kWh, the survey of 42 manufacturers found.");
  assert.equal(PAGE.slice(punct.spans[0].start, punct.spans[0].end), punct.text);
  // A line break in the page where the quote has a space (and a dash for the hyphen).
  const broken = located("Grid–scale capacity in Europe doubled between 2021 and 2023, reaching 40 gigawatts");
  assert.equal(broken.text, "Grid-scale capacity in Europe doubled between 2021 and 2023,\nreaching 40 gigawatts");
  // A line break in the quote where the page has a space.
  assert.equal(located("battery pack prices\nfell 20 percent").text, "battery pack prices fell 20 percent");
  // An ellipsis: each part aligned in order; the page's own passage is kept, what was left out included.
  const elided = located("battery pack prices fell 20 percent … the survey of 42 manufacturers found");
  assert.equal(elided.spans.length, 2);
  assert.equal(PAGE.slice(elided.spans[1].start, elided.spans[1].end), "the survey of 42 manufacturers found");
  assert.equal(elided.text, "battery pack prices fell 20 percent to “$139” per kWh, the survey of 42 manufacturers found");
  assert.equal(PAGE.slice(elided.start, elided.end), elided.text);
  assert.equal(located("Grid-scale capacity in Europe doubled... reaching 40 gigawatts.").text, "Grid-scale capacity in Europe doubled between 2021 and 2023,\nreaching 40 gigawatts;");
  // A word dropped and one changed: most words in order still locate it.
  assert.equal(located("In 2023 battery prices fell 20 percent to $139 per kilowatt-hour, the survey of 42 manufacturers found").spans.length, 1);
});

test("a quote that is not in the page is not located: invented words, the parts of an ellipsis out of order, the page's words reordered", () => {
  assert.equal(locateQuote("battery pack prices rose 35 percent after the new subsidy scheme began", PAGE), undefined);
  assert.equal(locateQuote("the survey of 42 manufacturers found … battery pack prices fell 20 percent", PAGE), undefined);
  assert.equal(locateQuote("manufacturers 42 of survey the found prices pack battery fell", PAGE), undefined);
  assert.equal(locateQuote("", PAGE), undefined);
  assert.equal(locateQuote("…", PAGE), undefined);
  // The parts of an ellipsis far apart are no quote of one passage.
  const far = `${PAGE}\n${"Unrelated words about the weather fill this long page. ".repeat(40)}\nThe committee met again in March.`;
  assert.ok(locateQuote("battery pack prices fell 20 percent … the committee met again in March", far) === undefined);
});

test("alignment uses a word index: a quote is found in a 50,000-character page quickly", () => {
  const filler = Array.from({ length: 700 }, (_, i) => `Paragraph ${i} discusses the weather, the markets and the prices of the day in some detail.`).join("\n");
  const page = `${filler.slice(0, 25_000)}\nThe regulator confirmed that lithium output in Chile rose 14% in 2024, to 49,000 tonnes.\n${filler.slice(25_000)}`;
  assert.ok(page.length > 50_000);
  const started = performance.now();
  let hit;
  for (let i = 0; i < 20; i++) hit = locateQuote(`the regulator confirmed that lithium output in Chile rose 14 % in 2024 to 49000 tonnes ${i % 2 ? "" : "."}`, page);
  const elapsed = performance.now() - started;
  assert.equal(hit?.text, "The regulator confirmed that lithium output in Chile rose 14% in 2024, to 49,000 tonnes");
  assert.ok(elapsed < 2_000, `20 alignments took ${Math.round(elapsed)} ms`);
  assert.equal(locateQuote("the prices of the day discusses paragraph weather 14 tonnes Chile regulator", page), undefined);
});

test("a support quote must carry the sentence's content: its figures and a good share of its key terms", () => {
  const sentence = "Installations reached 1200 MW in Spain.";
  assert.equal(carriedBy(sentence, "Installations reached 1,200 MW in Spain."), "supported", "1,200 is 1200");
  assert.equal(carriedBy(sentence, "Installations reached 1,300 MW in Spain."), "none", "another figure: no support");
  assert.equal(carriedBy("Installations in Spain reached 1200 MW in 2024.", "Installations in Spain reached 1,200 MW."), "partial", "a figure missing: partial at most");
  assert.equal(carriedBy(sentence, "According to"), "none");
});

test("a sentence in another language than its quote (a German report, an English page) is carried by its figures, read either way", () => {
  const quote = "Battery pack prices fell 14.5% in 2023 to an average of 1,200 dollars per kilowatt-hour of storage.";
  assert.equal(carriedBy("Die Preise für Batteriepakete fielen im Jahr 2023 um 14,5 % auf 1.200 Dollar.", quote), "supported");
  assert.equal(carriedBy("Die Preise für Batteriepakete fielen im Jahr 2023 um 17 % auf 1.200 Dollar.", quote), "partial", "a figure the quote does not hold");
  assert.equal(carriedBy("Die Preise für Batteriepakete fielen im Jahr 2021 um 17 % und mehr.", quote), "none");
  assert.equal(carriedBy("电池组的价格在2023年下降了14.5%，平均为每千瓦时1200美元。", quote), "supported");
  // Without figures the verifier's judgement stands on a quote that states something; "According to the agency" does not.
  assert.equal(carriedBy("Die Preise für Batteriepakete sind deutlich gefallen, und der Markt wächst weiter.", "Battery pack prices fell sharply while the market kept growing."), "supported");
  assert.equal(carriedBy("Die Preise für Batteriepakete sind deutlich gefallen, und der Markt wächst weiter.", "According to the agency."), "none");
  // The same language is compared word by word, as before: figures alone do not carry an English sentence.
  assert.equal(carriedBy("Heat pump sales fell 14.5% in 2023 across all of Europe.", quote), "none");
  assert.equal(carriedBy("Battery pack prices fell 20% in 2023.", "In 2023, battery pack prices fell 20 percent"), "supported");
  assert.equal(carriedBy("Battery prices fell 20% in 2023, and demand is expected to double again by 2031.", "In 2023, battery pack prices fell 20 percent"), "partial");
  // A figure added to a source sentence that has none: the rest is carried (the planted overstatement
  // on a fact without a figure was "none" before, and the verifier's "partial" unverified).
  assert.equal(carriedBy("Battery pack prices keep falling, and they are expected to halve again by 2031.", "Battery pack prices keep falling as factories scale up"), "partial");
  assert.equal(carriedBy("Battery pack prices fell 95% by 2031.", "Battery pack prices fell"), "partial", "the figure is not carried: partial at most");
  assert.equal(carriedBy("Output fell by 95% in a single year.", "Prices rose in a single quarter"), "none", "too few key terms");
  assert.equal(carriedBy("电池组价格在2023年下降了20%。", "2023年，电池组价格下降了20%"), "supported");
  assert.equal(carriedBy("电池组价格在2023年下降了20%。", "根据"), "none");
});

test('"According to", found in the page, never supports invented sentences', () => {
  const invented = Array.from({ length: 13 }, (_, i) => `Lithium exports from Chile rose ${10 + i}% in 20${10 + i}, the highest level recorded by regulators.`);
  for (const sentence of invented) {
    for (const verdict of ["supported", "partial"] as const) {
      const result = checkVerdict({ verdict, quote: "According to", explanation: "" }, PAGE, A, sentence);
      assert.equal(result.verdict, "unverified", sentence);
      assert.equal(result.quote, null);
      assert.match(result.note ?? "", /does not carry the sentence's figures or key terms/);
    }
  }
});

test("a verdict stands with a located quote carrying the sentence; otherwise it is no judgement (unverified), unless the model said unsupported", () => {
  const sentence = "Battery pack prices fell 20% in 2023, to $139 per kWh.";
  const ok = checkVerdict({ verdict: "supported", quote: 'In 2023 battery pack prices fell 20 percent to "$139" per kWh.', explanation: "States it." }, PAGE, A, sentence);
  assert.deepEqual(ok, { verdict: "supported", quote: "In 2023, battery pack prices fell 20 percent to “$139” per kWh,", quoteUrl: A, note: "States it." });
  const invented = checkVerdict({ verdict: "supported", quote: "battery pack prices fell 25% in 2023 after subsidies were cut nationwide", explanation: "" }, PAGE, A, sentence);
  assert.equal(invented.verdict, "unverified");
  assert.match(invented.note ?? "", /does not occur in the stored text/);
  assert.equal(invented.quote, null);
  assert.equal(checkVerdict({ verdict: "supported", quote: "", explanation: "" }, PAGE, A, sentence).verdict, "unverified", "no quote, no support");
  // "supported" with a quote that carries only part of the sentence is partial.
  const part = checkVerdict({ verdict: "supported", quote: "battery pack prices fell 20 percent", explanation: "" }, PAGE, A, sentence);
  assert.equal(part.verdict, "partial");
  assert.equal(part.quote, "battery pack prices fell 20 percent");
  assert.equal(checkVerdict({ verdict: "partial", quote: "battery pack prices fell 20 percent", explanation: "" }, PAGE, A, sentence).verdict, "partial");
  // The model's "unsupported" stands whatever it quotes.
  assert.equal(checkVerdict({ verdict: "unsupported", quote: "battery pack prices fell 20 percent", explanation: "No." }, PAGE, A, sentence).verdict, "unsupported");
});

test("a correction of several sentences is written with the citations on each, so each is judged again", () => {
  const { body, sourceTitles } = reportBody(REPORT);
  const claims = claimsOf(body);
  const out = applyRepairs(body, claims, [{ position: 3, action: "rewrite", sentence: "Output fell by 9% in one year. It recovered by 2024 in most regions. Yes." }], sourceTitles);
  assert.ok(out.includes(`Output fell by 9% in one year [1](${A}). It recovered by 2024 in most regions [1](${A}).`), out);
  assert.ok(!out.includes("Yes"), "a fragment that says nothing is left out");
  const rewritten = claimsOf(reportBody(out).body).filter((c) => c.text.includes("9%") || c.text.includes("recovered"));
  assert.deepEqual(rewritten.map((c) => c.urls), [[A], [A]]);
});

const TABLE = `## Comparison

| Chemistry | Finding | Source |
|:---|---|---:|
| LFP | Pack prices fell 20% in 2023 | [1](${A}) |
| NMC | Capacity doubled to 40 GW [2](${B}) | |
| Sodium-ion \\| pilot | Output fell by 95% in a single year | [1](${A}) |
| Total | 12 | |

After the table, prose.
`;

test("an uncited sentence is covered by the next citation of its paragraph or list item, not by one of another line", () => {
  const claims = claimsOf(`Prices fell 20% in 2023. Capacity doubled to 40 GW [1](${A}). Output fell by 95% in one year. Demand rose 9% in Asia [2](${B}). Nothing after it cites.\n\n- Installations reached 12 GW.\n- Storage grew 30% in Europe [2](${B}).`);
  assert.deepEqual(
    claims.map((c) => [c.text, c.urls, c.covering ?? null]),
    [
      ["Prices fell 20% in 2023.", [], [A]],
      ["Capacity doubled to 40 GW.", [A], null],
      ["Output fell by 95% in one year.", [], [B]],
      ["Demand rose 9% in Asia.", [B], null],
      ["Nothing after it cites.", [], null],
      ["Installations reached 12 GW.", [], null],
      ["Storage grew 30% in Europe.", [B], null],
    ],
  );
});

test("a table's rows are claims, each cited by the citations anywhere in it (a Source column); its header and delimiter rows are not", () => {
  const claims = claimsOf(TABLE);
  assert.deepEqual(
    claims.map((c) => [c.text, c.urls, c.row ?? false]),
    [
      ["LFP | Pack prices fell 20% in 2023", [A], true],
      ["NMC | Capacity doubled to 40 GW", [B], true],
      ["Sodium-ion | pilot | Output fell by 95% in a single year", [A], true],
      ["After the table, prose.", [], false],
    ],
    "a row of too few words ('Total | 12') is no claim",
  );
  for (const c of claims) assert.equal(TABLE.slice(c.start, c.end), c.markdown, "offsets point at the row");
});

test("a table row judged unsupported is removed whole, or, with a correction, stays as written: no sentence is written into the table", () => {
  const claims = claimsOf(TABLE);
  const removed = applyRepairs(TABLE, claims, [{ position: 2, action: "remove" }], new Map());
  assert.ok(!removed.includes("Sodium-ion") && removed.includes("| NMC | Capacity doubled to 40 GW") && removed.includes("|:---|---|---:|\n| LFP"), removed);
  assert.equal(claimsOf(removed.split("## Sources")[0]).filter((c) => c.row).length, 2, "the table's other rows stand");
  const kept = applyRepairs(TABLE, claims, [{ position: 0, action: "rewrite", sentence: "Pack prices fell 14% in 2023." }], new Map());
  assert.ok(kept.includes("| LFP | Pack prices fell 20% in 2023 |") && !kept.includes("14%"), kept);
});

test("the view describes the stored report: after a repair that left no claim, its counts are pass 2's (none), not the report as written", () => {
  const row = (pass: number, verdict: string) => ({ pass, position: 0, sentence: "Output fell by 95%.", urls: JSON.stringify([A]), verdict, quote: null, quoteUrl: null, note: null });
  const view = toVerificationView({ status: "done", removed: 1, rewritten: 0, completedAt: new Date(), verdicts: [row(1, "unsupported")] });
  assert.equal(view.as_written.counts.unsupported, 1);
  assert.deepEqual(view.counts, { claims: 0, supported: 0, partial: 0, unsupported: 0, uncited: 0, unverified: 0 });
  const kept = toVerificationView({ status: "done", removed: 0, rewritten: 0, completedAt: new Date(), verdicts: [row(1, "unverified"), { ...row(1, "supported"), position: 1 }] });
  assert.equal(kept.counts.unverified, 1);
  assert.equal(kept.support_rate, 1, "the rate is of the judged claims");
  assert.match(unverifiedNote(kept) ?? "", /^1 of 2 claims could not be verified/);
  assert.equal(unverifiedNote(view), null);
});
