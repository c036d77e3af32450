// Citation verification of a tree research's report, through the HTTP API: the planted unsupported
// sentence is flagged and gone from the stored report, supported claims carry a quote found in the
// page's stored text, the support rate is the counts' ratio, and the verifier's calls are recorded.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { PLANTED_UNCITED, PLANTED_UNSUPPORTED, startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createAndStart, waitForStatus } from "../helpers/research";
import type { VerificationView } from "@/lib/verification/view";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes({ llm: { verify: { plantUnsupported: true, plantPartial: true, plantUncited: true, forgeQuotes: false } } });
  app = await TestApp.start({ name: "verification", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

test("a tree report is verified after it is written: the planted claim is flagged and repaired away, supported ones keep verbatim quotes", async () => {
  const id = await createAndStart(app, { depth: 1, breadth: 2, questions: 1 });
  const view = await waitForStatus(app, id, ["completed", "failed"]);
  assert.equal(view.status, "completed", view.error ?? "");

  const res = await app.fetch(`/api/research/${id}/verification`);
  assert.equal(res.status, 200, await res.clone().text());
  const v = (await res.json()) as VerificationView;
  assert.equal(v.status, "done");

  const planted = v.as_written.claims.find((c) => c.sentence.startsWith(PLANTED_UNSUPPORTED));
  assert.equal(planted?.verdict, "unsupported", "the planted sentence is flagged");
  assert.ok(!view.report!.includes(PLANTED_UNSUPPORTED), "and the repair removed it from the stored report");
  assert.ok(!v.claims.some((c) => c.sentence.startsWith(PLANTED_UNSUPPORTED)));
  assert.ok(v.repair.removed >= 1);
  assert.equal(v.as_written.claims.find((c) => c.sentence === PLANTED_UNCITED)?.verdict, "uncited");
  assert.ok(
    v.claims.some((c) => c.verdict === "partial"),
    `the overstatement is partly supported; the verdicts as written: ${JSON.stringify(v.as_written.claims.map((c) => [c.verdict, c.sentence.slice(0, 160), c.note]))}`,
  );

  const supported = v.claims.filter((c) => c.verdict === "supported");
  assert.ok(supported.length >= 2, "the report's real findings are supported");
  const pages = await app.db.page.findMany({ where: { researchId: id }, select: { url: true, content: true } });
  const text = new Map(pages.map((p) => [p.url, (p.content ?? "").replace(/\s+/g, " ")]));
  for (const c of supported) {
    assert.ok(c.quote && c.quote_url && c.cited_urls.includes(c.quote_url));
    // The quote is the page's own span (it may hold the page's line break).
    assert.ok(text.get(c.quote_url)?.includes(c.quote.replace(/\s+/g, " ")), `the quote occurs in ${c.quote_url}'s stored text`);
  }
  // The rate is of the judged claims: unverified ones (no usable verdict) are counted apart.
  assert.equal(v.support_rate, v.counts.supported / (v.counts.claims - v.counts.unverified));
  assert.equal(v.counts.claims, v.claims.length);

  // The verifier's calls are counted with the research's like every other call.
  assert.ok(fakes.llm.calls("citation-verifier") > 0);
  assert.equal(view.tokens.llm_calls, fakes.llm.log.length);
});

test("a research without a verification answers 404 with the one error shape", async () => {
  const research = await app.db.research.create({ data: { userId: app.user.id, initialPrompt: "Not verified", status: "completed", report: "# r" } });
  const res = await app.fetch(`/api/research/${research.id}/verification`);
  assert.equal(res.status, 404);
  assert.equal(((await res.json()) as { code: string }).code, "not_found:verification");
});
