// The write-up's snippet citations as numbered links to the snippets' pages, and the paper's
// references built from the pages' author and date.
import assert from "node:assert/strict";
import { test } from "node:test";
import { conversationDocument, conversationPaper } from "./export-view";
import type { SharedConversation } from "./shared-view";
import { citeSnippets } from "./write-up";

const A = "https://a.example/prices";
const B = "https://b.example/grid";
const shown = [
  { id: "item-a", taskKey: "lit-1-1", content: "Prices fell.", url: A },
  { id: "item-b", taskKey: "lit-1-2", content: "Capacity doubled.", url: B },
  { id: "item-a2", taskKey: "lit-1-1", content: "More on prices.", url: A },
];
const pages = new Map([
  [A, { title: "Battery prices", text: "Prices fell." }],
  [B, { title: null, text: "Capacity doubled." }],
]);

test("snippet ids become numbered links to their pages, one per page; invented ids go; prose in brackets stays", () => {
  const out = citeSnippets("Prices fell [item-a]. Capacity doubled [item-b, item-a2]. Made up [nope:9]. Quoted [sic] text [item-a2].", shown, pages);
  const [body, list] = out.split("## Sources");
  assert.equal(body.trim(), `Prices fell [1](${A}). Capacity doubled [2](${B})[1](${A}). Made up. Quoted [sic] text [1](${A}).`);
  assert.match(list, /1\. Battery prices — <https:\/\/a\.example\/prices>/);
  assert.match(list, /2\. .* — <https:\/\/b\.example\/grid>/);
});

const conversation: SharedConversation = {
  title: "Grid storage",
  objective: "Grid storage",
  evolvingObjective: null,
  researchMode: "steering",
  status: "completed",
  currentLevel: 1,
  keyInsights: [],
  hypothesis: null,
  createdAt: "2026-11-25T10:00:00.000Z",
  messages: [
    { role: "user", content: "Grid storage", iteration: 0, level: 0, createdAt: "2026-11-25T10:00:00.000Z" },
    { role: "assistant", content: `Prices fell [1](${A}).\n\n## Sources\n\n1. Battery prices — <${A}>\n`, iteration: 1, level: 1, createdAt: "2026-11-25T10:05:00.000Z" },
  ],
  plan: [],
  discoveries: [],
  writeUpVerification: {
    status: "done",
    support_rate: 0.5,
    counts: { claims: 2, supported: 1, partial: 0, unsupported: 0, uncited: 1 },
    claims: [],
    as_written: { support_rate: 1 / 3, counts: { claims: 3, supported: 1, partial: 0, unsupported: 1, uncited: 1 }, claims: [] },
    repair: { removed: 1, rewritten: 0 },
    completed_at: "2026-11-25T10:06:00.000Z",
  },
};

test("the write-up's export states its support rate; the paper's references carry the pages' author and date", () => {
  const { doc, shared } = conversationDocument(conversation);
  assert.equal(doc.supportRate, 0.5);
  assert.equal(doc.sources.length, 1, "the reply's own source list is not a second copy");
  const paper = conversationPaper(doc, shared, new Map([[A, { fetchedAt: new Date("2026-11-24T08:00:00Z"), author: "Ada Lovelace", published: "2025-03-14" }]]));
  assert.deepEqual(paper.sources[0], { n: 1, url: A, title: "Battery prices", accessed: "2026-11-24", author: "Ada Lovelace", published: "2025-03-14" });
  assert.ok(paper.verification[0].includes("1 (50%) are fully supported"));
  assert.ok(!paper.limitations.some((l) => l.includes("were not checked")));
  const unverified = conversationPaper(conversationDocument({ ...conversation, writeUpVerification: null }).doc, { ...conversation, writeUpVerification: null });
  assert.equal(unverified.sources[0].author, null);
  assert.ok(unverified.limitations.some((l) => l.includes("were not checked")));
});
