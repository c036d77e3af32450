// verifyReport against the loopback fake LLM and a real migrated database: a planted unsupported
// sentence is flagged and removed by the repair, supported ones are not, an overstatement is partly
// supported, an uncited fact is flagged, forged quotes are rejected, and a resumed verification
// repeats only the stage it was in.
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

const verify = (researchId: string) => verifyReport({ subject: { researchId }, question: "How are grid batteries used?", report: REPORT, sources, sourceBudgetTokens: 2_000 });

async function viewOf(researchId: string) {
  const row = await verificationOfResearch({ researchId });
  assert.ok(row);
  return toVerificationView(row);
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
  assert.deepEqual(view.as_written.counts, { claims: 5, supported: 2, partial: 1, unsupported: 1, uncited: 1 });
  assert.equal(view.as_written.support_rate, 2 / 5);

  // The repair removed the planted sentence (its source says nothing like it); the rest stands.
  assert.ok(!final.includes(PLANTED_UNSUPPORTED));
  assert.ok(final.includes(`${SUPPORTED_B} [2](${URL_B}).`));
  assert.deepEqual(view.repair, { removed: 1, rewritten: 0 });
  assert.deepEqual(view.counts, { claims: 4, supported: 2, partial: 1, unsupported: 0, uncited: 1 });
  assert.equal(view.support_rate, 2 / 4);
  const stored = await db.reportVerification.findUniqueOrThrow({ where: { researchId: id } });
  assert.equal(stored.repaired, final);
  assert.equal(stored.original, REPORT);
});

test("a verdict whose quote is not in the stored text is rejected", async () => {
  fakes.llm.configure({ verify: { plantUnsupported: false, plantPartial: false, plantUncited: false, forgeQuotes: true } });
  const id = await newResearch();
  await verify(id);
  const view = await viewOf(id);
  const supportedB = view.as_written.claims.find((c) => c.sentence === `${SUPPORTED_B}.`);
  assert.equal(supportedB?.verdict, "unsupported");
  assert.match(supportedB?.note ?? "", /does not occur in the stored text/);
  assert.equal(view.as_written.counts.supported, 0);
});

test("a verification resumed after its first pass was saved repeats no verifier call", async () => {
  const id = await newResearch();
  const { savePass, openVerification } = await import("../db/verifications");
  // A first run saved pass 1 and stopped before the repair (a crash).
  await verify(id);
  const pass1 = await db.claimVerdict.findMany({ where: { verification: { researchId: id }, pass: 1 } });
  await db.reportVerification.delete({ where: { researchId: id } });
  const v = await openVerification({ researchId: id }, REPORT);
  await savePass(
    v.id,
    1,
    pass1.map((r) => ({ position: r.position, sentence: r.sentence, urls: JSON.parse(r.urls) as string[], verdict: r.verdict, quote: r.quote, quoteUrl: r.quoteUrl, note: r.note })),
    { claims: 5, supported: 2, partial: 1, unsupported: 1, uncited: 1 },
    { status: "repairing" },
  );
  fakes.reset();
  const final = await verify(id);
  assert.equal(fakes.llm.calls("citation-verifier"), 0, "pass 1 is not judged again");
  assert.equal(fakes.llm.calls("uncited-claim-finder"), 0);
  assert.equal(fakes.llm.calls("claim-repairer"), 1);
  assert.ok(!final.includes(PLANTED_UNSUPPORTED));
  assert.equal((await viewOf(id)).status, "done");
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
