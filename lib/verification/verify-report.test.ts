// verifyReport against the loopback fake LLM and a real migrated database: a planted unsupported
// sentence is flagged and removed by the repair, a misstated one rewritten with the verifier's
// correction and checked again (every sentence of it), supported ones are not touched, an
// overstatement is partly supported, an uncited fact is flagged, forged quotes are no support, a
// verifier that names no sentence it was given or fails outright leaves the report whole with its
// claims unverified (and a warning), the view's counts are the stored report's, and a resumed
// verification repeats only the pass it was in.
import assert from "node:assert/strict";
import { after, beforeEach, test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { PLANTED_OVERSTATEMENT, PLANTED_UNCITED, PLANTED_UNSUPPORTED, startFakes, type Fakes } from "../../test/fakes";

await useTestDatabase();
const fakes: Fakes = await startFakes();
Object.assign(process.env, fakes.env, { LLM_RETRY_BUDGET_MS: "0" });
const { db } = await import("../db/client");
const { verifyReport } = await import("./verify-report");
const { verificationOfResearch } = await import("../db/verifications");
const { toVerificationView } = await import("./view");
const { claimsOf, reportBody } = await import("./claims");

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

const REPORT = `# Storage report

This report answers the question from 2 sources. In short: ${SUPPORTED_A} [1](${URL_A}).

## Key findings

- ${SUPPORTED_B} [2](${URL_B}).
- ${PLANTED_UNSUPPORTED} [1](${URL_A}).
- ${SUPPORTED_B}${PLANTED_OVERSTATEMENT} [2](${URL_B}).
- ${PLANTED_UNCITED}

## Sources

1. Battery prices — <${URL_A}>
2. Grid capacity — <${URL_B}>
`;

const sources = new Map([
  [URL_A, { title: "Battery prices", text: TEXT_A }],
  [URL_B, { title: "Grid capacity", text: TEXT_B }],
]);

async function newResearch() {
  return (await db.research.create({ data: { initialPrompt: "Grid storage", status: "running", depth: 1, breadth: 1 } })).id;
}

let warnings: string[] = [];
beforeEach(() => {
  warnings = [];
});

const verify = (researchId: string, report = REPORT) =>
  verifyReport({ subject: { researchId }, question: "How are grid batteries used?", report, sources, sourceBudgetTokens: 2_000, onWarning: (m) => void warnings.push(m) });

async function viewOf(researchId: string) {
  const row = await verificationOfResearch({ researchId });
  assert.ok(row);
  return toVerificationView(row);
}

/** The view describes the stored report: its claims are the stored report's cited sentences and flagged uncited ones, no more, no fewer. */
function assertViewIsOf(view: Awaited<ReturnType<typeof viewOf>>, stored: string) {
  const key = (text: string, urls: string[]) => `${text} ${urls.join(" ")}`;
  const claims = claimsOf(reportBody(stored).body);
  assert.deepEqual(
    view.claims.filter((c) => c.cited_urls.length > 0).map((c) => key(c.sentence, c.cited_urls)),
    claims.filter((c) => c.urls.length > 0).map((c) => key(c.text, c.urls)),
  );
  const sentences = new Set(claims.map((c) => c.text));
  for (const c of view.claims) assert.ok(sentences.has(c.sentence), `in the stored report: ${c.sentence}`);
  assert.equal(view.counts.claims, view.claims.length);
}

test("the planted unsupported sentence is flagged and removed, supported ones are not; partial and uncited are marked; the rate is from the counts", async () => {
  const id = await newResearch();
  const final = await verify(id);
  const view = await viewOf(id);
  assert.equal(view.status, "done");

  const first = new Map(view.as_written.claims.map((c) => [c.sentence, c]));
  assert.equal(first.get(`${PLANTED_UNSUPPORTED}.`)?.verdict, "unsupported");
  assert.equal(first.get(`${SUPPORTED_B}.`)?.verdict, "supported");
  assert.equal(first.get(`${SUPPORTED_B}.`)?.quote, `${SUPPORTED_B}.`);
  assert.equal(first.get(`${SUPPORTED_B}.`)?.quote_url, URL_B);
  assert.equal(first.get(`In short: ${SUPPORTED_A}.`)?.verdict, "supported");
  assert.equal(first.get(`${SUPPORTED_B}${PLANTED_OVERSTATEMENT}.`)?.verdict, "partial");
  assert.equal(first.get(PLANTED_UNCITED)?.verdict, "uncited");
  assert.ok(!first.has("This report answers the question from 2 sources."), "framing is no claim");
  assert.deepEqual(view.as_written.counts, { claims: 5, supported: 2, partial: 1, unsupported: 1, uncited: 1, unverified: 0 });
  assert.equal(view.as_written.support_rate, 2 / 5);

  // The repair removed the planted sentence (its source says nothing like it); the rest stands.
  assert.ok(!final.includes(PLANTED_UNSUPPORTED));
  assert.ok(final.includes(`${SUPPORTED_B} [2](${URL_B}).`));
  assert.deepEqual(view.repair, { removed: 1, rewritten: 0 });
  assert.deepEqual(view.counts, { claims: 4, supported: 2, partial: 1, unsupported: 0, uncited: 1, unverified: 0 });
  assert.equal(view.support_rate, 2 / 4);
  const stored = await db.reportVerification.findUniqueOrThrow({ where: { researchId: id } });
  assert.equal(stored.repaired, final);
  assert.equal(stored.original, REPORT);
  assertViewIsOf(view, final);
  assert.deepEqual(warnings, []);
});

test("a verdict whose quote is not in the stored text is no support: the sentence is unverified, kept with its citation", async () => {
  fakes.llm.configure({ verify: { plantUnsupported: false, plantPartial: false, plantUncited: false, forgeQuotes: true } });
  const id = await newResearch();
  const final = await verify(id);
  const view = await viewOf(id);
  const supportedB = view.as_written.claims.find((c) => c.sentence === `${SUPPORTED_B}.`);
  assert.equal(supportedB?.verdict, "unverified");
  assert.match(supportedB?.note ?? "", /does not occur in the stored text/);
  assert.equal(view.as_written.counts.supported, 0);
  // Only the planted sentence was judged unsupported: it alone is removed.
  assert.equal(view.as_written.claims.find((c) => c.sentence === `${PLANTED_UNSUPPORTED}.`)?.verdict, "unsupported");
  assert.ok(final.includes(`${SUPPORTED_B} [2](${URL_B}).`) && final.includes(`${SUPPORTED_A} [1](${URL_A}).`));
  assert.ok(!final.includes(PLANTED_UNSUPPORTED));
  assertViewIsOf(view, final);
  assert.equal(view.counts.unverified, 3);
  assert.equal(view.support_rate, 0, "of the judged claims (the uncited fact), none supported");
  assert.equal(warnings.length, 1, "3 of 4 claims unverified: a warning says so");
});

const citationsOf = (report: string) => [...report.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].length;

/** The two ways a verifier gives nothing usable end alike: every cited sentence unverified, the report whole, a warning. */
async function assertNothingJudged(id: string, final: string) {
  const view = await viewOf(id);
  assert.equal(view.status, "done");
  assert.equal(final, REPORT, "the report keeps every sentence and citation");
  assert.equal(citationsOf(final), citationsOf(REPORT));
  assert.deepEqual(view.repair, { removed: 0, rewritten: 0 });
  const cited = view.claims.filter((c) => c.cited_urls.length > 0);
  assert.equal(cited.length, 4);
  assert.ok(cited.every((c) => c.verdict === "unverified"), JSON.stringify(cited.map((c) => [c.verdict, c.note])));
  assert.deepEqual(view.counts, { claims: 5, supported: 0, partial: 0, unsupported: 0, uncited: 1, unverified: 4 });
  assert.equal(view.support_rate, 0);
  assertViewIsOf(view, final);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /could not be verified for 4 of 5 claims/);
  return view;
}

test("a verifier whose verdicts name no sentence it was given leaves every cited sentence unverified, and the report keeps all its citations", async () => {
  fakes.llm.configure({ verify: { plantUnsupported: true, plantPartial: false, plantUncited: false, forgeQuotes: false, unknownIds: true } });
  const id = await newResearch();
  const view = await assertNothingJudged(id, await verify(id));
  assert.match(view.claims[0].note ?? "", /gave no usable verdict/);
  // Each source's batch was asked, and asked once more for the sentences it skipped (each ask with its repairs).
  const { getEnv } = await import("../env");
  assert.equal(fakes.llm.calls("citation-verifier"), 2 * 2 * (1 + getEnv().LLM_REPAIR_ATTEMPTS));
});

test("a verifier call that fails outright ends the same way: every cited sentence unverified, the report whole, a warning", async () => {
  fakes.llm.configure({ agentFailures: [{ agent: "citation-verifier", status: 500, skip: 0, times: 1_000 }] });
  const id = await newResearch();
  const view = await assertNothingJudged(id, await verify(id));
  assert.match(view.claims.find((c) => c.cited_urls.length > 0)?.note ?? "", /call against .* failed/);
});

test("a correction that repeats the sentence is no fix: the sentence is removed", async () => {
  fakes.llm.configure({ verify: { plantUnsupported: false, plantPartial: false, plantUncited: false, forgeQuotes: false, corrections: "echo" } });
  const misstated = "Battery pack prices fell to 99 dollars per kilowatt-hour in 2023, a drop of 40 percent";
  const report = `# Storage report\n\n- ${SUPPORTED_B} [1](${URL_B}).\n- ${misstated} [2](${URL_A}).\n\n## Sources\n\n1. Grid capacity — <${URL_B}>\n2. Battery prices — <${URL_A}>\n`;
  const id = await newResearch();
  const final = await verify(id, report);
  const view = await viewOf(id);
  assert.ok(!final.includes(misstated), final);
  assert.deepEqual(view.repair, { removed: 1, rewritten: 0 });
  assertViewIsOf(view, final);
  assert.equal(citationsOf(final), 1);
});

test("a correction of two sentences has each judged: the one its source supports stays, the other is removed", async () => {
  fakes.llm.configure({ verify: { plantUnsupported: false, plantPartial: false, plantUncited: false, forgeQuotes: false, corrections: "two-sentences" } });
  const misstated = "Battery pack prices fell to 99 dollars per kilowatt-hour in 2023, a drop of 40 percent";
  const report = `# Storage report\n\n- ${SUPPORTED_B} [1](${URL_B}).\n- ${misstated} [2](${URL_A}).\n\n## Sources\n\n1. Grid capacity — <${URL_B}>\n2. Battery prices — <${URL_A}>\n`;
  const id = await newResearch();
  const final = await verify(id, report);
  const view = await viewOf(id);
  assert.ok(final.includes(`${SUPPORTED_A} [2](${URL_A}).`), final);
  assert.ok(!final.includes(PLANTED_UNSUPPORTED), "the correction's second sentence was judged unsupported and removed");
  assert.equal(view.claims.find((c) => c.sentence === `${SUPPORTED_A}.`)?.verdict, "supported");
  assert.deepEqual(view.counts, { claims: 2, supported: 2, partial: 0, unsupported: 0, uncited: 0, unverified: 0 });
  assertViewIsOf(view, final);
});

test("a citation at a paragraph's end covers the sentences before it: each judged against it; one it does not support is an uncited fact, not repaired", async () => {
  const report = `# Storage report\n\n${SUPPORTED_A}. The survey covered 42 manufacturers in Asia and Europe [1](${URL_A}). ${PLANTED_UNSUPPORTED}. ${SUPPORTED_B} [2](${URL_B}).\n`;
  const id = await newResearch();
  const final = await verify(id, report);
  const view = await viewOf(id);
  const byText = new Map(view.as_written.claims.map((c) => [c.sentence, c]));
  assert.deepEqual(
    [`${SUPPORTED_A}.`, "The survey covered 42 manufacturers in Asia and Europe.", `${PLANTED_UNSUPPORTED}.`, `${SUPPORTED_B}.`].map((s) => [byText.get(s)?.verdict, byText.get(s)?.cited_urls, byText.get(s)?.quote_url ?? null]),
    [["supported", [], URL_A], ["supported", [URL_A], URL_A], ["uncited", [], null], ["supported", [URL_B], URL_B]],
  );
  assert.deepEqual(view.repair, { removed: 0, rewritten: 0 }, "a sentence the model did not cite is not repaired");
  assert.ok(final.includes(PLANTED_UNSUPPORTED));
  assert.deepEqual(view.counts, { claims: 4, supported: 3, partial: 0, unsupported: 0, uncited: 1, unverified: 0 });
});

test("a report without links is verified too: its factual sentences are uncited claims", async () => {
  const report = `# Storage report\n\nThis report answers the question without sources.\n\n- ${PLANTED_UNCITED}\n- Storage is discussed in many countries today.\n`;
  const id = await newResearch();
  const final = await verify(id, report);
  assert.equal(final, report);
  const view = await viewOf(id);
  assert.equal(fakes.llm.calls("uncited-claim-finder"), 1);
  assert.deepEqual(view.claims.map((c) => [c.sentence, c.verdict]), [[PLANTED_UNCITED, "uncited"]]);
  assertViewIsOf(view, final);
});

test("a Chinese report's sentences are claims, judged against their sources", async () => {
  const report = `# 储能报告\n\n电池组价格在2023年下降到每千瓦时139美元 [1](${URL_A})。欧洲的电网级储能容量翻了一番 [2](${URL_B})。\n\n## Sources\n\n1. Battery prices — <${URL_A}>\n2. Grid capacity — <${URL_B}>\n`;
  const id = await newResearch();
  await verify(id, report);
  const view = await viewOf(id);
  assert.equal(view.as_written.counts.claims, 2);
  assert.equal(fakes.llm.calls("citation-verifier"), 2, "one call per source");
});

test("a misstated figure is rewritten with the verifier's correction, and the rewrite is checked again", async () => {
  const misstated = "Battery pack prices fell to 99 dollars per kilowatt-hour in 2023, a drop of 40 percent";
  const report = `# Storage report\n\n- ${SUPPORTED_B} [1](${URL_B}).\n- ${misstated} [2](${URL_A}).\n\n## Sources\n\n1. Grid capacity — <${URL_B}>\n2. Battery prices — <${URL_A}>\n`;
  const id = await newResearch();
  const final = await verifyReport({ subject: { researchId: id }, question: "How are grid batteries used?", report, sources, sourceBudgetTokens: 2_000 });
  const view = await viewOf(id);
  assert.equal(view.as_written.claims.find((c) => c.sentence === `${misstated}.`)?.verdict, "unsupported");
  assert.deepEqual(view.repair, { removed: 0, rewritten: 1 });
  // The rewrite keeps the sentence's citation, says what the source says, and pass 2 finds it supported.
  assert.ok(!final.includes(misstated));
  assert.ok(final.includes(`${SUPPORTED_A} [2](${URL_A}).`), final);
  assert.equal(view.claims.find((c) => c.sentence === `${SUPPORTED_A}.`)?.verdict, "supported");
  assert.deepEqual(view.counts, { claims: 2, supported: 2, partial: 0, unsupported: 0, uncited: 0, unverified: 0 });
  assertViewIsOf(view, final);
  // Pass 1 (one call per source) and pass 2 (the rewrite against its source): the repair made no call of its own.
  assert.equal(fakes.llm.calls("citation-verifier"), 3);
  assert.equal(fakes.llm.log.length, fakes.llm.calls("citation-verifier") + fakes.llm.calls("uncited-claim-finder"));
});

/** The first run's pass 1 and repaired report; the verification then re-opened with them saved and `status`. */
async function savedAfterPass1(id: string, status: "rechecking" | "repairing") {
  const { openVerification } = await import("../db/verifications");
  await verify(id);
  const first = await db.reportVerification.findUniqueOrThrow({ where: { researchId: id }, include: { verdicts: { where: { pass: 1 } } } });
  await db.reportVerification.delete({ where: { researchId: id } });
  const v = await openVerification({ researchId: id }, REPORT);
  await db.reportVerification.update({
    where: { id: v.id },
    data: { status, repaired: status === "rechecking" ? first.repaired : null, removed: status === "rechecking" ? first.removed : 0, verdicts: { create: first.verdicts.map(({ id: _, verificationId: __, ...row }) => row) } },
  });
}

test("a verification resumed after its first pass and repair were saved repeats no call of pass 1", async () => {
  const id = await newResearch();
  await savedAfterPass1(id, "rechecking");
  fakes.reset();
  const final = await verify(id);
  // The repair only removed: pass 2 has no rewrite to judge, so nothing is asked at all.
  assert.equal(fakes.llm.log.length, 0);
  assert.ok(!final.includes(PLANTED_UNSUPPORTED));
  const view = await viewOf(id);
  assert.equal(view.status, "done");
  assert.deepEqual(view.repair, { removed: 1, rewritten: 0 });
});

test("a verification an earlier version left between its first pass and the repair is judged again and finishes", async () => {
  const id = await newResearch();
  await savedAfterPass1(id, "repairing");
  fakes.reset();
  const final = await verify(id);
  assert.ok(fakes.llm.calls("citation-verifier") > 0, "its corrections were not kept: pass 1 runs again");
  assert.ok(!final.includes(PLANTED_UNSUPPORTED));
  const view = await viewOf(id);
  assert.equal(view.status, "done");
  assert.deepEqual(view.as_written.counts, { claims: 5, supported: 2, partial: 1, unsupported: 1, uncited: 1, unverified: 0 });
  assertViewIsOf(view, final);
});

test("a verification is found by its research, as Prisma's model API reads it; none for a research without one", async () => {
  const id = await newResearch();
  const { findVerification } = await import("../db/verifications");
  assert.equal(await findVerification({ researchId: id }), null);
  assert.equal(await findVerification({ messageId: "no-such-message" }), null);
  await verify(id);
  const found = await findVerification({ researchId: id });
  assert.deepEqual(found, await db.reportVerification.findUnique({ where: { researchId: id } }));
  assert.equal(found?.status, "done");
  assert.ok(found?.completedAt instanceof Date);
});

// Last in the file: the window it teaches holds every later prompt of this process.
test("a source shown in part because the model's context window is small: a sentence found unsupported there is unverified, kept with its citation", async () => {
  const { learnContextWindow } = await import("../ai/context-limit");
  learnContextWindow(1_500);
  const notes = Array.from({ length: 200 }, (_, i) => `Note ${i + 1} on the survey's method says nothing the report says about storage.`).join("\n");
  const id = await newResearch();
  const report = `# Storage report\n\n- ${PLANTED_UNSUPPORTED} [1](${URL_A}).\n- ${SUPPORTED_B} [2](${URL_B}).\n`;
  const final = await verifyReport({
    subject: { researchId: id },
    question: "How are grid batteries used?",
    report,
    sources: new Map([[URL_A, { title: "Battery prices", text: `${notes}\n${TEXT_A}` }], [URL_B, { title: "Grid capacity", text: TEXT_B }]]),
    sourceBudgetTokens: 2_000,
  });
  const claims = new Map((await viewOf(id)).as_written.claims.map((c) => [c.sentence, c]));
  const inPart = claims.get(`${PLANTED_UNSUPPORTED}.`);
  assert.equal(inPart?.verdict, "unverified", "judged on part of its source: no judgement");
  assert.match(inPart?.note ?? "", /saw only part of/);
  assert.ok(final.includes(`${PLANTED_UNSUPPORTED} [1](${URL_A}).`), "kept with its citation");
  assert.equal(claims.get(`${SUPPORTED_B}.`)?.verdict, "supported", "a source shown whole is judged as ever");
});
