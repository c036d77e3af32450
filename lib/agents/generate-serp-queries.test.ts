import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  chooseFollowUps,
  generateSerpQueries,
  normaliseQuery,
  QUERY_REPAIR_ROUNDS,
  QueryShortfallError,
  renderChain,
  DIGEST_PARENT_LEARNINGS,
  type ChainLink,
} from "./generate-serp-queries";
import { StructuredOutputError } from "../ai/errors";
import { estimateTokens } from "../ai/prompts";
import { resetEnvCache } from "../env";
import { FakeLlm } from "../../test/fakes/llm-server";

const link = (name: string, facts: number): ChainLink => ({
  query: `query ${name}`,
  objective: `objective ${name}`,
  learnings: Array.from({ length: facts }, (_, i) => ({ content: `${name} fact ${i} `.repeat(10), url: `https://example.org/${name}/${i}` })),
});

test("the whole chain is kept when it fits", () => {
  const { text, trimmed } = renderChain([link("root", 2), link("parent", 2)], 5_000);
  assert.equal(trimmed, 0);
  assert.match(text, /query root/);
  assert.match(text, /query parent/);
});

test("the farthest ancestors are trimmed first and the budget holds", () => {
  const chain = [link("root", 40), link("middle", 40), link("parent", 40)];
  const budget = 900;
  const { text, trimmed } = renderChain(chain, budget);
  assert.ok(trimmed >= 1);
  assert.ok(estimateTokens(text) <= budget * 1.05, `${estimateTokens(text)} tokens`);
  // The parent's digest is complete; the root's is gone or trimmed.
  assert.match(text, new RegExp(`parent fact ${DIGEST_PARENT_LEARNINGS - 1} `));
  assert.doesNotMatch(text, /root fact 5 /);
});

test("the digest is bounded: distinct learnings, a capped number per link, each URL written once", () => {
  const shared = { content: "Batteries earned 40 percent of revenue from reserves in 2024.", url: "https://example.org/shared" };
  const chain: ChainLink[] = [
    { query: "q root", objective: "o root", learnings: [shared, { content: "Root-only fact.", url: "https://example.org/shared" }] },
    { query: "q parent", objective: "o parent", learnings: [{ ...shared, content: `  ${shared.content.toUpperCase()} ` }, ...link("parent", 60).learnings] },
  ];
  const { text, trimmed } = renderChain(chain, 6_000);
  assert.equal(trimmed, 0);
  // The repeated learning is shown once (for the parent), its URL once, and the root cites it by number.
  assert.equal(text.split("https://example.org/shared").length - 1, 1);
  assert.equal(text.toLowerCase().split("batteries earned 40 percent").length - 1, 1);
  assert.match(text, /Root-only fact\. \[1\]/);
  // The parent shows DIGEST_PARENT_LEARNINGS of its 61 distinct learnings and says how many are left.
  assert.equal((text.match(/parent fact \d+/g) ?? []).length, (DIGEST_PARENT_LEARNINGS - 1) * 10);
  assert.match(text, /\(45 more learning\(s\) not shown\)/);
  // At depth 5 with seven pages of three learnings per link, the digest stays small.
  const deep = Array.from({ length: 4 }, (_, i) => link(`level${i}`, 21));
  assert.ok(estimateTokens(renderChain(deep, 6_000).text) < 2_200);
});

test("queries that differ only in case, spacing or punctuation normalise alike", () => {
  assert.equal(normaliseQuery("  Heat-pump COP  in Norway?! "), normaliseQuery("heat pump cop in norway"));
  assert.notEqual(normaliseQuery("heat pump cop in norway"), normaliseQuery("heat pump cop in sweden"));
  assert.equal(normaliseQuery(" ?! "), "");
});

// A loopback OpenAI-compatible server that answers the query generator from a script: reply n is
// `script[n]` (the last one repeats), and every request's last user message is kept.
type Draft = { query: string; objective?: string };
let server: Server;
let script: Draft[][] = [];
let prompts: string[] = [];
/** The model writes the list as the queries alone, as small models do. */
let bareStrings = false;

function configureLlm(baseUrl: string): void {
  process.env.OPENAI_BASE_URL = baseUrl;
  process.env.OPENAI_API_KEY = "test";
  process.env.RESEARCH_MODEL = "fake-model";
  process.env.LLM_MAX_RETRIES = "0";
  resetEnvCache();
}

before(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const { messages } = JSON.parse(body) as { messages: { role: string; content: string }[] };
      prompts.push(messages.filter((m) => m.role === "user").at(-1)?.content ?? "");
      const drafts = script[Math.min(prompts.length - 1, script.length - 1)] ?? [];
      const content = JSON.stringify({ queries: drafts.map((d) => (bareStrings ? d.query : { query: d.query, objective: d.objective ?? `objective of ${d.query}` })) });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${prompts.length}`,
          object: "chat.completion",
          created: 1_735_689_600,
          model: "fake-model",
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const q = (...texts: string[]): Draft[] => texts.map((query) => ({ query }));
const parent: ChainLink = { query: "Heat pumps in Norway", objective: "Find field data", learnings: [{ content: "COP 2.9 at -15 °C", url: "https://a.example/" }] };

describe("query generator against a scripted model", () => {
  beforeEach(() => {
    configureLlm(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    script = [];
    prompts = [];
    bareStrings = false;
  });

  test("queries written as bare strings are kept, each its own objective, with no repair", async () => {
    bareStrings = true;
    script = [q("grid battery revenue 2024", "battery arbitrage spreads", "capacity market payments")];
    const drafts = await generateSerpQueries({ prompt: "Grid batteries", qa: [], count: 3, contextBudgetTokens: 2_000 });
    assert.deepEqual(drafts, ["grid battery revenue 2024", "battery arbitrage spreads", "capacity market payments"].map((query) => ({ query, objective: query })));
    assert.equal(prompts.length, 1);
  });

  test("a long reply is cut to exactly count, in one call", async () => {
    script = [q("a one", "b two", "c three", "d four")];
    const drafts = await generateSerpQueries({ prompt: "Heat pumps", qa: [], count: 3, contextBudgetTokens: 2_000 });
    assert.deepEqual(drafts.map((d) => d.query), ["a one", "b two", "c three"]);
    assert.equal(prompts.length, 1);
  });

  test("a short first reply is topped up to exactly count, naming the queries already planned", async () => {
    script = [q("cold climate cop"), q("defrost cycles", "installer survey", "grid peak load")];
    const drafts = await generateSerpQueries({ prompt: "Heat pumps", qa: [], count: 3, contextBudgetTokens: 2_000 });
    assert.deepEqual(drafts.map((d) => d.query), ["cold climate cop", "defrost cycles", "installer survey"]);
    assert.ok(drafts.every((d) => d.objective.length > 0));
    assert.equal(prompts.length, 2);
    assert.match(prompts[1], /<already_planned>\ncold climate cop\n<\/already_planned>/);
    assert.match(prompts[1], /Write 2 more, different queries/);
    assert.match(prompts[1], /<count>\n3\n<\/count>/, "the count tag keeps the total");
  });

  test("case, spacing and punctuation variants and parent-chain repeats are rejected and asked again", async () => {
    script = [
      q("  heat pumps  in NORWAY! ", "Cold climate COP", "cold-climate cop"),
      q("COLD CLIMATE COP?", "Defrost cycles"),
      q("Installer survey Norway 2024"),
    ];
    const drafts = await generateSerpQueries({ prompt: "Heat pumps", qa: [], chain: [parent], count: 3, contextBudgetTokens: 2_000 });
    assert.deepEqual(drafts.map((d) => d.query), ["Cold climate COP", "Defrost cycles", "Installer survey Norway 2024"]);
    assert.equal(prompts.length, 3);
    assert.match(prompts[1], /<rejected_duplicates>\nheat pumps {2}in NORWAY!\ncold-climate cop\n<\/rejected_duplicates>/);
    assert.match(prompts[1], /Write 2 more/);
    assert.match(prompts[1], /from the already planned queries, the queries of the parent chain, and the rejected duplicates\./);
    // Rejected once, shown once: the third request lists each rejected text a single time.
    assert.match(prompts[2], /<rejected_duplicates>\nheat pumps {2}in NORWAY!\ncold-climate cop\n<\/rejected_duplicates>/);
    assert.match(prompts[2], /<already_planned>\nCold climate COP\nDefrost cycles\n<\/already_planned>/);
  });

  test("a model that keeps repeating itself gets a bounded number of repairs, then QueryShortfallError with what it has", async () => {
    script = [q("cold climate cop"), q("Cold Climate COP.", "COLD climate cop")];
    await assert.rejects(
      generateSerpQueries({ prompt: "Heat pumps", qa: [], count: 3, contextBudgetTokens: 2_000 }),
      (error: unknown) => {
        assert.ok(error instanceof QueryShortfallError);
        assert.ok(error instanceof StructuredOutputError, "callers that treat it as a structured-output failure still do");
        assert.equal(error.name, "QueryShortfallError");
        assert.equal(error.count, 3);
        assert.deepEqual(error.queries, [{ query: "cold climate cop", objective: "objective of cold climate cop" }]);
        assert.equal(error.message, `The query generator planned 1 of 3 queries after ${QUERY_REPAIR_ROUNDS} repair attempts`);
        return true;
      },
    );
    assert.equal(prompts.length, 1 + QUERY_REPAIR_ROUNDS);
    assert.equal(QUERY_REPAIR_ROUNDS, 3);
  });

  test("no usable queries at all: QueryShortfallError with none", async () => {
    script = [q("   ", "?!")];
    await assert.rejects(generateSerpQueries({ prompt: "Heat pumps", qa: [], count: 2, contextBudgetTokens: 2_000 }), (error: unknown) => {
      assert.ok(error instanceof QueryShortfallError);
      assert.deepEqual(error.queries, []);
      assert.equal(error.message, "The query generator planned 0 of 2 queries after 3 repair attempts");
      return true;
    });
    assert.equal(prompts.length, 4);
    assert.match(prompts[1], /Write 2 queries, each with an objective\./, "nothing planned yet: not asked for 'more'");
  });
});

describe("query generator against the fake LLM", () => {
  const llm = new FakeLlm();
  before(async () => {
    await llm.start();
  });
  after(() => llm.stop());
  beforeEach(() => {
    configureLlm(llm.url);
    llm.reset();
  });

  test("'fewer' is topped up to exactly count for roots and children", async () => {
    llm.configure({ queryCountOverride: "fewer" });
    const roots = await generateSerpQueries({ prompt: "LLM fault r2 e", qa: [], count: 3, contextBudgetTokens: 2_000 });
    assert.deepEqual(roots.map((d) => d.query), ["llm fault r2 e aspect 1", "llm fault r2 e aspect 2", "llm fault r2 e aspect 3"]);
    const chain = [{ query: roots[0].query, objective: roots[0].objective, learnings: [] }];
    const children = await generateSerpQueries({ prompt: "LLM fault r2 e", qa: [], chain, count: 2, contextBudgetTokens: 2_000 });
    assert.deepEqual(children.map((d) => d.query), ["llm fault r2 e aspect 1.1", "llm fault r2 e aspect 1.2"]);
    assert.equal(llm.calls("query-generator"), 4);
  });

  test("'stuck' ends in QueryShortfallError after the bounded repairs", async () => {
    llm.configure({ queryCountOverride: "stuck" });
    await assert.rejects(generateSerpQueries({ prompt: "LLM fault r2 e", qa: [], count: 3, contextBudgetTokens: 2_000 }), (error: unknown) => {
      assert.ok(error instanceof QueryShortfallError);
      assert.deepEqual(error.queries.map((d) => d.query), ["llm fault r2 e aspect 1", "llm fault r2 e aspect 2"]);
      return true;
    });
    assert.equal(llm.calls("query-generator"), 4);
  });
});

test("a query's children from its reads' follow-ups: round-robin over its pages, distinct, none of its chain's queries", () => {
  const q = (query: string) => ({ query, objective: `About ${query}` });
  const proposed = [[q("Lagoon costs 2024"), q("Swansea lagoon decision")], [q("lagoon costs, 2024!"), q("Tidal range output Wales")], [], [q("Parent query")]];
  assert.deepEqual(chooseFollowUps(proposed, 3, ["Root query", "parent QUERY"]).map((d) => d.query), ["Lagoon costs 2024", "Swansea lagoon decision", "Tidal range output Wales"]);
  assert.deepEqual(chooseFollowUps(proposed, 2, []).map((d) => d.query), ["Lagoon costs 2024", "Parent query"], "the first of each page first");
  assert.equal(chooseFollowUps([[q("Only one")]], 2, []).length, 1, "fewer than asked: the Query Generator plans them");
  assert.deepEqual(chooseFollowUps([], 2, []), []);
});
