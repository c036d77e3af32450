// The verification of a report while it is written (streamed.ts), against the loopback fake LLM and a
// real migrated database: each finished part is judged as soon as it is complete, before the next is
// there; verifyReport then takes those verdicts and asks nothing more; what it stores (both passes,
// the repair, the view) equals the whole report's verification, a rewrite in an earlier part
// included; and a part whose verifier call fails is "unverified", as the whole report's would be.
import assert from "node:assert/strict";
import { after, beforeEach, test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { PLANTED_OVERSTATEMENT, PLANTED_UNCITED, PLANTED_UNSUPPORTED, startFakes, type Fakes } from "../../test/fakes";

await useTestDatabase();
const fakes: Fakes = await startFakes();
Object.assign(process.env, fakes.env, { LLM_RETRY_BUDGET_MS: "0" });
const { db } = await import("../db/client");
const { verifyReport } = await import("./verify-report");
const { PartSplitter, StreamedVerification } = await import("./streamed");
const { claimsOf } = await import("./claims");
const { verificationOfResearch } = await import("../db/verifications");
const { toVerificationView } = await import("./view");
const { numberCitations } = await import("../report-citations");

after(async () => {
  await db.$disconnect();
  await fakes.stop();
});
beforeEach(() => fakes.reset());

const URL_A = "https://energy.example/battery-prices";
const URL_B = "https://grid.example/capacity";
const TEXT_A = "Battery pack prices fell to 139 dollars per kilowatt-hour in 2023, a drop of 14 percent.\nThe survey covered 42 manufacturers in Asia and Europe.";
const TEXT_B = "Grid-scale storage capacity in Europe doubled between 2021 and 2023 to reach 40 gigawatts.";
const SUPPORTED_A = "Battery pack prices fell to 139 dollars per kilowatt-hour in 2023, a drop of 14 percent";
const SUPPORTED_B = "Grid-scale storage capacity in Europe doubled between 2021 and 2023 to reach 40 gigawatts";
const MISSTATED_A = "Battery pack prices fell to 99 dollars per kilowatt-hour in 2023, a drop of 40 percent";
const QUESTION = "How are grid batteries used?";

// As the model writes it: citations by URL, its own source list at the end (dropped by the product).
const WRITTEN = `# Storage report

This report answers the question from 2 sources. In short: ${SUPPORTED_A} [1](${URL_A}).

## Key findings

- ${MISSTATED_A} [1](${URL_A}).
- ${SUPPORTED_B} [2](${URL_B}).

## Details

${PLANTED_UNSUPPORTED} [1](${URL_A}). ${SUPPORTED_B}${PLANTED_OVERSTATEMENT} [2](${URL_B}).

${PLANTED_UNCITED}

## Open questions

The sources do not settle every aspect of storage; newer data would help.

## Sources

1. [${URL_A}](${URL_A})
2. [${URL_B}](${URL_B})
`;
const titles = new Map([
  [URL_A, "Battery prices"],
  [URL_B, "Grid capacity"],
]);
// The report as stored: numbered, with the generated source list (what buildReport returns).
const REPORT = numberCitations(WRITTEN, titles).markdown;

const sources = new Map([
  [URL_A, { title: "Battery prices", text: TEXT_A }],
  [URL_B, { title: "Grid capacity", text: TEXT_B }],
]);
const calls = { question: QUESTION, sources, sourceBudgetTokens: 2_000 };

async function newResearch() {
  return (await db.research.create({ data: { initialPrompt: "Grid storage", status: "running", depth: 1, breadth: 1 } })).id;
}

/** The report streamed in small deltas, each finished part given to a streamed verification as report-step gives it. */
async function streamed(written = WRITTEN, { pauseMs = 0, onPart }: { pauseMs?: number; onPart?: (part: string) => void } = {}) {
  const early = new StreamedVerification(calls);
  const parts = new PartSplitter(
    (part) => {
      onPart?.(part);
      early.add(numberCitations(part, new Map()).markdown);
    },
    () => early.endSection(),
  );
  for (let i = 0; i < written.length; i += 17) {
    parts.push(written.slice(i, i + 17));
    if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
  }
  parts.end();
  return early;
}

async function stored(researchId: string) {
  const row = await verificationOfResearch({ researchId });
  assert.ok(row);
  const view = toVerificationView(row);
  // Ids and times differ between two verifications; everything else is compared.
  const pass = (n: number) => row.verdicts.filter((v) => v.pass === n).map(({ id: _i, verificationId: _v, ...rest }) => rest);
  return { view, pass1: pass(1), pass2: pass(2), original: row.original, repaired: row.repaired, counts: [row.claims, row.supported, row.partial, row.unsupported, row.uncited, row.removed, row.rewritten, row.status] };
}

test("the splitter gives each line when it ends (a fenced block whole), with its section's heading, and says where sections end", () => {
  const parts: string[] = [];
  const splitter = new PartSplitter(
    (p) => parts.push(p),
    () => parts.push("<end of section>"),
  );
  splitter.push("# Title\n\nFirst para");
  assert.deepEqual(parts, ["<end of section>"]);
  splitter.push("graph. Still it.");
  assert.deepEqual(parts, ["<end of section>"], "a line is not finished before its end");
  splitter.push("\n\n## Section\n- one\n- two\n```\ncode\n\nmore\n```\n## Next\nlast words");
  assert.deepEqual(parts, [
    "<end of section>",
    "# Title\n\nFirst paragraph. Still it.\n",
    "<end of section>",
    "## Section\n\n- one\n",
    "## Section\n\n- two\n",
    "## Section\n\n```\ncode\n\nmore\n```\n",
    "<end of section>",
  ]);
  splitter.end();
  assert.deepEqual(parts.slice(-2), ["## Next\n\nlast words\n", "<end of section>"]);
});

test("the splitter gives a table's header with its delimiter row (no claim), then each row", () => {
  const parts: string[] = [];
  const splitter = new PartSplitter((p) => parts.push(p));
  splitter.push("## T\n| Chemistry | Finding of the survey |\n|---|---|\n| LFP | Prices fell 20% in 2023 [1](https://a.example/x) |\n| No | header here at all |\nProse.\n");
  splitter.end();
  assert.deepEqual(parts, [
    "## T\n\n| Chemistry | Finding of the survey |\n|---|---|\n",
    "## T\n\n| LFP | Prices fell 20% in 2023 [1](https://a.example/x) |\n",
    "## T\n\n| No | header here at all |\n",
    "## T\n\nProse.\n",
  ]);
  assert.deepEqual(claimsOf(parts[0]), [], "a header row is no claim");
  // A first row with no delimiter under it is no header: given on its own.
  const loose: string[] = [];
  const again = new PartSplitter((p) => loose.push(p));
  again.push("| Prices fell 20% in 2023 |\nProse after it.\n");
  again.end();
  assert.deepEqual(loose, ["| Prices fell 20% in 2023 |\n", "Prose after it.\n"]);
});

test("each part is judged as soon as it is finished, while the next is written", async () => {
  fakes.llm.configure({ latencyMs: 20 });
  const addedAt: { part: string; at: number }[] = [];
  const early = await streamed(WRITTEN, { pauseMs: 15, onPart: (part) => addedAt.push({ part, at: Date.now() }) });
  await early.settled();
  const keyFindings = addedAt.find((p) => p.part.startsWith("## Key findings"));
  const details = addedAt.find((p) => p.part.startsWith("## Details"));
  assert.ok(keyFindings && details);
  // The verifier's call on the key findings' misstated sentence began before the details were there.
  const misstatedCall = fakes.llm.log.find((e) => e.agent === "citation-verifier" && JSON.stringify(e.messages).includes("99 dollars"));
  assert.ok(misstatedCall, "the misstated sentence was judged");
  assert.ok(misstatedCall.at >= keyFindings.at && misstatedCall.at < details.at, `asked at ${misstatedCall.at}, its part ${keyFindings.at}, the next ${details.at}`);
  // The model's own source list is no part of the report: nothing of it was asked.
  assert.ok(!fakes.llm.log.some((e) => JSON.stringify(e.messages).includes(`${URL_A}](`)));
});

test("a report written at once has a line's sentences judged in one call; one written slowly, each in a call of its own", async () => {
  const written = `# R\n\n${SUPPORTED_A} [1](${URL_A}). The survey covered 42 manufacturers in Asia and Europe [1](${URL_A}).\n`;
  const verifierCalls = async (options?: { slowWriterMs: number }) => {
    fakes.reset();
    const early = new StreamedVerification(calls, options);
    const parts = new PartSplitter((part) => early.add(numberCitations(part, new Map()).markdown), () => early.endSection());
    parts.push(written);
    parts.end();
    await early.settled();
    return fakes.llm.log.filter((e) => e.agent === "citation-verifier").length;
  };
  assert.equal(await verifierCalls(), 1, "written at once: the line's two sentences in one call");
  // A writer as slow as a real model's (every part a second or more after the first): a sentence a call.
  assert.equal(await verifierCalls({ slowWriterMs: 0 }), 2, "written slowly: a call per sentence");
});

test("the final verdicts, repair and stored report equal the whole report's verification, and nothing more is asked at the end", async () => {
  const whole = await newResearch();
  const wholeReport = await verifyReport({ subject: { researchId: whole }, report: REPORT, ...calls });
  const wholeCalls = fakes.llm.log.length;
  fakes.reset();

  const early = await streamed();
  await early.settled();
  const asked = fakes.llm.log.length;
  assert.ok(asked > 0);
  const id = await newResearch();
  const final = await verifyReport({ subject: { researchId: id }, report: REPORT, early, ...calls });
  assert.equal(fakes.llm.log.length, asked, "every verdict, the rewrite's included, was given while the report was written");
  assert.ok(asked >= wholeCalls, "parts are asked apart");

  assert.equal(final, wholeReport);
  const a = await stored(whole);
  const b = await stored(id);
  assert.deepEqual(b.pass1, a.pass1);
  assert.deepEqual(b.pass2, a.pass2);
  assert.deepEqual([b.original, b.repaired, b.counts], [a.original, a.repaired, a.counts]);
  assert.deepEqual({ ...b.view, completed_at: null }, { ...a.view, completed_at: null });

  // What the scenario plants: the misstated figure (in an earlier section) rewritten and found supported, the planted sentence removed.
  assert.deepEqual(b.view.repair, { removed: 1, rewritten: 1 });
  assert.ok(!final.includes(MISSTATED_A) && !final.includes(PLANTED_UNSUPPORTED));
  assert.match(final, new RegExp(`- ${SUPPORTED_A} \\[1\\]\\(${URL_A.replace(/[./]/g, "\\$&")}\\)\\.`));
  const verdictOf = (sentence: string) => b.view.claims.find((c) => c.sentence === sentence)?.verdict;
  assert.equal(verdictOf(`${SUPPORTED_A}.`), "supported");
  assert.equal(verdictOf(`${SUPPORTED_B}${PLANTED_OVERSTATEMENT}.`), "partial");
  assert.equal(verdictOf(PLANTED_UNCITED), "uncited");
  assert.deepEqual(b.view.counts, { claims: 5, supported: 3, partial: 1, unsupported: 0, uncited: 1, unverified: 0 });
});

test("a part whose verifier call fails is unverified, as in the whole report's verification: kept, marked, not asked again", async () => {
  fakes.llm.configure({ agentFailures: [{ agent: "citation-verifier", status: 500, skip: 0, times: 1_000 }] });
  const whole = await newResearch();
  const wholeWarnings: string[] = [];
  const wholeReport = await verifyReport({ subject: { researchId: whole }, report: REPORT, ...calls, onWarning: (m) => void wholeWarnings.push(m) });
  fakes.reset();
  fakes.llm.configure({ agentFailures: [{ agent: "citation-verifier", status: 500, skip: 0, times: 1_000 }] });

  const early = await streamed();
  await early.settled();
  const asked = fakes.llm.log.length;
  const id = await newResearch();
  const warnings: string[] = [];
  const final = await verifyReport({ subject: { researchId: id }, report: REPORT, early, ...calls, onWarning: (m) => void warnings.push(m) });
  assert.equal(fakes.llm.log.length, asked, "a failed call is a verdict (unverified), not asked again at the end");
  assert.equal(final, REPORT, "nothing judged unsupported: the report is kept whole");
  assert.equal(final, wholeReport);
  const a = await stored(whole);
  const b = await stored(id);
  assert.deepEqual(b.pass1, a.pass1);
  const cited = b.view.claims.filter((c) => c.cited_urls.length > 0);
  assert.ok(cited.length > 0 && cited.every((c) => c.verdict === "unverified" && /call against .* failed/.test(c.note ?? "")));
  assert.deepEqual(warnings, wholeWarnings);
});

test("what the parts did not judge is judged at the end: a report that differs from what was streamed is verified whole", async () => {
  // Only the first part was streamed; the rest is judged by verifyReport as before.
  const early = await streamed(WRITTEN.slice(0, WRITTEN.indexOf("## Key findings")));
  await early.settled();
  const id = await newResearch();
  const final = await verifyReport({ subject: { researchId: id }, report: REPORT, early, ...calls });
  const whole = await newResearch();
  assert.equal(final, await verifyReport({ subject: { researchId: whole }, report: REPORT, ...calls }));
  assert.deepEqual((await stored(id)).pass2, (await stored(whole)).pass2);
});

test("cancelled checks leave their sentences to the end, where they are judged", async () => {
  fakes.llm.configure({ latencyMs: 200 });
  const early = await streamed();
  early.cancel();
  const prejudged = await early.settled();
  assert.equal(prejudged.cited.size, 0);
  assert.ok(early.failedChecks > 0);
  fakes.llm.configure({ latencyMs: 0 });
  const id = await newResearch();
  const final = await verifyReport({ subject: { researchId: id }, report: REPORT, early, ...calls });
  const view = (await stored(id)).view;
  assert.equal(view.status, "done");
  assert.deepEqual(view.repair, { removed: 1, rewritten: 1 });
  assert.ok(!final.includes(PLANTED_UNSUPPORTED));
});
