// Citation verification of a Deep Research write-up (the final reply), through the HTTP API: the
// write-up cites the pages its snippets came from; the planted unsupported sentence is flagged and
// repaired away, supported ones carry a quote from the page's stored text; the support rate is the
// counts' ratio; another user's verification is 404. The shared pages (a conversation's and a tree
// report's) show the same verification, read-only.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { PLANTED_UNCITED, PLANTED_UNSUPPORTED, startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { createTestUser } from "../helpers/auth";
import { conversation, pollUntilDone, readConversationStream, startDr } from "../helpers/deep-research";
import { messageText } from "../fakes/llm-parse";
import { createAndStart, waitForStatus } from "../helpers/research";
import type { VerificationView } from "@/lib/verification/view";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes({ llm: { verify: { plantUnsupported: true, plantPartial: false, plantUncited: true, forgeQuotes: false } } });
  app = await TestApp.start({ name: "dr-verification", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

const normalise = (text: string) => text.replace(/[“”]/g, '"').replace(/[‘’]/g, "'").replace(/\s+/g, " ");

async function share(path: string): Promise<string> {
  const res = await app.postJson(`${path}/shares`, {});
  assert.equal(res.status, 201, await res.clone().text());
  const { token } = (await res.json()) as { token: string };
  const page = await fetch(`${app.url}/share/${token}`);
  assert.equal(page.status, 200);
  return page.text();
}

test("a Deep Research write-up cites its pages and is verified: the planted claim is flagged and repaired away, supported ones are not", async () => {
  const start = await startDr(app, { message: "Solid-state batteries for grid storage", researchMode: "steering" });
  assert.equal((await pollUntilDone(app, start.pollUrl)).at(-1)?.status, "completed");
  const c = await conversation(app, start.conversationId);
  const writeUp = c.messages.filter((m) => m.role === "assistant").at(-1)!;
  assert.match(writeUp.content, /\[1\]\(https?:\/\/[^)]+\)/, "the write-up cites pages as numbered links");
  assert.ok(!writeUp.content.includes("invented-snippet"), "an id that was not shown is dropped");

  const res = await app.fetch(`/api/deep-research/conversations/${start.conversationId}/verification`);
  assert.equal(res.status, 200, await res.clone().text());
  const v = (await res.json()) as VerificationView & { message_id: string };
  assert.equal(v.status, "done");
  assert.equal(v.message_id, writeUp.id, "the verification is the write-up's");

  const planted = v.as_written.claims.find((claim) => claim.sentence.startsWith(PLANTED_UNSUPPORTED));
  assert.equal(planted?.verdict, "unsupported", "the planted sentence is flagged");
  assert.ok(!writeUp.content.includes(PLANTED_UNSUPPORTED), "and the repair removed it from the stored reply");
  assert.ok(!v.claims.some((claim) => claim.sentence.startsWith(PLANTED_UNSUPPORTED)));
  assert.ok(v.repair.removed >= 1);
  assert.equal(v.as_written.claims.find((claim) => claim.sentence === PLANTED_UNCITED)?.verdict, "uncited");

  // The supported sentences are not flagged; each quote is in the stored text of a page the sentence cites.
  const supported = v.claims.filter((claim) => claim.verdict === "supported");
  assert.ok(supported.length >= 1, "the snippet sentences are supported");
  const tasks = c.plan.filter((t) => t.childResearchId);
  for (const claim of supported) {
    assert.ok(claim.quote_url && claim.cited_urls.includes(claim.quote_url));
    // The same page can be stored by several literature tasks' researches (one fetch may have failed
    // where another succeeded): the quote must be in the stored text of one of them.
    const pages = await app.db.page.findMany({ where: { url: claim.quote_url, researchId: { in: tasks.map((t) => t.childResearchId!) } } });
    assert.ok(pages.some((page) => page.content && normalise(page.content).includes(normalise(claim.quote!))), `the quote is in the stored text of ${claim.quote_url}`);
  }
  // The rate is of the judged claims: unverified ones (no usable verdict) are counted apart.
  assert.equal(v.support_rate, v.counts.supported / (v.counts.claims - v.counts.unverified));
  assert.equal(v.counts.claims, v.claims.length);
  assert.ok(fakes.llm.calls("citation-verifier") >= 1);

  // Another user's conversation: its verification is 404, as is an unknown id.
  const bob = await createTestUser(app.db, { email: "bob-dr-verification@test.local" });
  const other = await fetch(`${app.url}/api/deep-research/conversations/${start.conversationId}/verification`, { headers: { authorization: `Bearer ${bob.token}` } });
  assert.equal(other.status, 404);
  assert.equal(((await other.json()) as { code: string }).code, "not_found:conversation");
  assert.equal((await app.fetch("/api/deep-research/conversations/no-such-conversation/verification")).status, 404);

  // The shared conversation shows the write-up's verification, read-only: the support rate and the flagged claims.
  const html = await share(`/api/deep-research/conversations/${start.conversationId}`);
  assert.match(html, new RegExp(`data-testid="report-verification" data-status="done" data-support-rate="${Math.round(v.support_rate! * 100)}"`));
  assert.ok(html.includes('data-testid="dr-verified-reply"'));
  assert.ok(html.includes('data-testid="flagged-claim" data-verdict="uncited"'), "the uncited fact is listed");
});

test("the write-up streams into the conversation's stream, and its parts are checked while it is written: the verification after it asks no sentence again", async () => {
  // No planted claims (no rewrite to judge after the reply), and a write-up whose pieces come over 2 s
  // after a 2 s wait.
  fakes.llm.configure({ verify: { plantUnsupported: false, plantPartial: false, plantUncited: false, forgeQuotes: false }, latencyRules: [{ match: "dr-reply agent[\\s\\S]*<snippets>", latencyMs: 4_000 }] });
  try {
    const from = fakes.llm.log.length;
    const start = await startDr(app, { message: "Flow batteries for grid storage", researchMode: "steering" });
    const streamed = readConversationStream(app, start.conversationId);
    // A page loaded mid-reply: the conversation holds the text written so far.
    const draft = await waitFor(async () => {
      const d = (await conversation(app, start.conversationId)).draft;
      return d?.text ? d : undefined;
    }, 120_000, "a draft of the write-up");
    assert.equal(draft.replyToId, start.messageId);
    assert.ok(draft.text.startsWith("Iteration 1 on"), draft.text);
    assert.equal((await pollUntilDone(app, start.pollUrl)).at(-1)?.status, "completed");
    assert.equal((await conversation(app, start.conversationId)).draft, null, "no draft once the reply is saved");
    const log = fakes.llm.log.slice(from);
    const writeUp = log.find((e) => e.agent === "dr-reply" && e.messages.some((m) => messageText(m).includes("<snippets>")));
    assert.ok(writeUp?.endedAt, "the write-up was written");
    const checks = log.filter((e) => e.agent === "citation-verifier" && e.at >= writeUp.at);
    const during = checks.filter((e) => e.at < writeUp.endedAt!);
    assert.ok(during.length >= 1, `citation checks began while the write-up was written (${checks.length} in all)`);
    // Each cited sentence was asked about once: the verify step took the verdicts of the parts.
    const asked = checks.flatMap((e) => [...e.messages.map(messageText).join("\n").matchAll(/<sentence id="[^"]+">\s*([\s\S]*?)\s*<\s?\/sentence>/g)].map((m) => m[1]));
    assert.ok(asked.length >= 2);
    assert.equal(new Set(asked).size, asked.length, `a sentence asked twice: ${asked.join(" | ")}`);
    const v = (await (await app.fetch(`/api/deep-research/conversations/${start.conversationId}/verification`)).json()) as VerificationView;
    assert.equal(v.status, "done");
    assert.ok(v.counts.supported >= 1, "the write-up's sentences were judged");

    // The stream carried the reply as it was written, in pieces whose offsets add up, before the saved reply.
    const parts = await streamed;
    const pieces = parts.filter((p) => p.type === "data-reply-delta").map((p) => p.data as { offset: number; delta: string; replyToId: string });
    assert.ok(pieces.length >= 2, `the write-up came in pieces (${pieces.length})`);
    const last = pieces.findLastIndex((p) => p.offset === 0);
    const text = pieces.slice(last).reduce((t, p) => (assert.equal(p.offset, t.length, "pieces in order"), t + p.delta), "");
    assert.ok(text.includes("## Findings"), "the pieces are the write-up's text");
    assert.equal(pieces[last].replyToId, start.messageId, "the pieces name the start they answer");
  } finally {
    // The options given at construction (the planted claims of the other tests).
    fakes.reset();
  }
});

test("a shared tree report shows its verification read-only: the support rate and the flagged claims", async () => {
  const id = await createAndStart(app, { depth: 1, breadth: 2, questions: 1 });
  assert.equal((await waitForStatus(app, id, ["completed", "failed"])).status, "completed");
  const v = (await (await app.fetch(`/api/research/${id}/verification`)).json()) as VerificationView;
  assert.equal(v.status, "done");
  const html = await share(`/api/research/${id}`);
  assert.match(html, new RegExp(`data-testid="report-verification" data-status="done" data-support-rate="${Math.round(v.support_rate! * 100)}"`));
  assert.ok(html.includes('data-testid="flagged-claim" data-verdict="uncited"'));
  assert.ok(html.includes('data-testid="shared-report"'));
});
