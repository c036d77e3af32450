// The misbehaving model's transforms (llm-misbehave.ts), on replies of the shapes the product's agents
// ask for: each mode changes what it should, leaves the rest, and (where a real model's reply would
// be) stays valid for the agent's schema. The fake over the wire: fakes.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Output } from "ai";
import { z } from "zod";
import { extractJson } from "@/lib/ai/json";
import {
  countOff,
  datasetDescription,
  enumCase,
  groupedByTag,
  listAsText,
  wordedEnum,
  findingsTables,
  paragraphCitations,
  genericUrl,
  idLabel,
  misbehave,
  nearQuote,
  paraphrase,
  reasoningText,
  REASONING_MARKER,
  retyped,
  retypedUrl,
  tableName,
  type MisbehaveInput,
  type MisbehaveMode,
} from "./llm-misbehave";
import { leafKind, mapLeaves, type JsonSchema } from "./llm-schema-leaves";

/** The JSON Schema the product sends for a zod schema (its response_format, as generateStructured makes it). */
async function wireSchema(schema: z.ZodType): Promise<JsonSchema> {
  const format = await Output.object({ schema, name: "x" }).responseFormat;
  return (format as { schema: JsonSchema }).schema;
}

const verifier = z.object({
  verdicts: z.array(
    z.object({
      id: z.number().int().describe("The id of the sentence, as given in <sentence id>"),
      verdict: z.enum(["supported", "partial", "unsupported"]),
      quote: z.string(),
      explanation: z.string(),
      correction: z.string(),
    }),
  ),
});
const planner = z.object({
  tasks: z.array(z.object({ type: z.enum(["LITERATURE", "ANALYSIS"]), objective: z.string(), datasetFilenames: z.array(z.string()).default([]) })),
});
const handles = z.object({ source: z.enum(["S1", "S2", "S3"]), datasets: z.array(z.enum(["D1", "D2"])), taskId: z.string(), evidenceTaskIds: z.array(z.string()), url: z.string() });
const answer = z.discriminatedUnion("action", [
  z.object({ action: z.literal("search"), think: z.string(), searchQuery: z.array(z.string()) }),
  z.object({ action: z.literal("answer"), think: z.string(), answer: z.string(), references: z.array(z.object({ url: z.string(), exactQuote: z.string() })) }),
]);

const QUOTE = "Installed capacity grew by 32 percent in 2024, the largest rise on record, according to the agency.";
const verdicts = {
  verdicts: [
    { id: 3, verdict: "supported", quote: QUOTE, explanation: "It says so.", correction: "" },
    { id: 7, verdict: "unsupported", quote: "", explanation: "It does not.", correction: "" },
    { id: 9, verdict: "partial", quote: "Prices fell, then rose again.", explanation: "Part of it.", correction: "" },
  ],
};
const plan = {
  tasks: [
    { type: "LITERATURE", objective: "Regional sales evidence line 1.1", datasetFilenames: [] },
    { type: "ANALYSIS", objective: "Analyse the uploaded data on regional sales", datasetFilenames: ["sales.csv"] },
  ],
};
const chosen = { source: "S3", datasets: ["D1", "D2"], taskId: "lit-1-1", evidenceTaskIds: ["lit-1-1", "ana-1-2"], url: "http://127.0.0.1:4103/articles/Heat-Pumps" };

/** A run of the fake's transform: the scenario's reply in, the misbehaving one out, counters as the fake keeps them. */
function model(mode: MisbehaveMode) {
  const counters = new Map<string, number>();
  const nextNumber = (key: string) => {
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return n;
  };
  return (value: unknown, schema?: JsonSchema, extra: Partial<MisbehaveInput> = {}) =>
    misbehave({ mode, agent: "citation-verifier", text: typeof value === "string" ? value : JSON.stringify(value), json: typeof value !== "string", schema, firstAttempt: true, prompt: "", nextNumber, ...extra });
}

describe("reasoning modes", () => {
  test("think: a <think> block before every reply, with braces and a draft object, then the reply as it was", () => {
    const think = model("think");
    const json = think(verdicts);
    const [, reasoning, rest] = /^<think>\n([\s\S]*)\n<\/think>\n\n([\s\S]*)$/.exec(json.text)!;
    assert.equal(rest, JSON.stringify(verdicts));
    assert.ok(reasoning.includes(REASONING_MARKER));
    assert.match(reasoning, /I'll answer \{"verdicts": \[\.\.\.\]\}/);
    // A complete object that is not the answer comes first: a parser that takes the first object gets the wrong thing.
    assert.deepEqual(JSON.parse(/\{"verdicts": "draft"\}/.exec(reasoning)![0]), { verdicts: "draft" });
    const report = think("# Report\n\nText.", undefined);
    assert.ok(report.text.startsWith("<think>\n") && report.text.endsWith("</think>\n\n# Report\n\nText."), report.text);
    assert.match(report.text, /\{Key findings\}/);
  });

  test("think-plain: the same block without a brace, in [THINK], <seed:think> and <think> in turn; reasoning-field: the reasoning beside the text", () => {
    const plain = model("think-plain");
    for (const [open, close] of [["[THINK]", "[/THINK]"], ["<seed:think>", "</seed:think>"], ["<think>", "</think>"]]) {
      const text = plain(verdicts).text;
      assert.ok(text.startsWith(`${open}\n`) && text.endsWith(`${close}\n\n${JSON.stringify(verdicts)}`), text);
      const reasoning = text.slice(0, text.indexOf(close));
      assert.ok(reasoning.includes(REASONING_MARKER));
      assert.doesNotMatch(reasoning, /[{}]/);
    }
    const field = model("reasoning-field")(verdicts);
    assert.equal(field.text, JSON.stringify(verdicts));
    assert.equal(field.reasoning, reasoningText({ agent: "citation-verifier", text: field.text, json: true }, true));
  });
});

describe("shape modes", () => {
  test("prose: fenced, then bare JSON in prose; wrapper: {response}, then {data}, then the object as a string of JSON", () => {
    const prose = model("prose");
    const fenced = prose(plan).text;
    assert.match(fenced, /```json\n\{"tasks"/);
    const bare = prose(plan).text;
    assert.ok(bare.startsWith("The result follows. {") && !bare.includes("```"), bare);
    for (const text of [fenced, bare]) assert.deepEqual(extractJson(text), plan);
    const wrapper = model("wrapper");
    assert.deepEqual(JSON.parse(wrapper(plan).text), { response: plan });
    assert.deepEqual(JSON.parse(wrapper(plan).text), { data: plan });
    assert.deepEqual(JSON.parse(JSON.parse(wrapper(plan).text).response), plan);
    assert.equal(wrapper("plain text").text, "plain text", "a plain-text reply is left alone");
  });

  test("truncated: every 3rd first attempt is cut with finish_reason length; repairs and plain text never are", () => {
    const truncated = model("truncated");
    const replies = [1, 2, 3, 4, 5, 6].map(() => truncated(plan));
    assert.deepEqual(replies.map((r) => r.finishReason), [null, null, "length", null, null, "length"]);
    assert.throws(() => JSON.parse(replies[2].text));
    assert.ok(JSON.stringify(plan).startsWith(replies[2].text));
    assert.equal(truncated(plan, undefined, { firstAttempt: false }).finishReason, null);
  });

  test("empty: every 3rd first attempt, JSON or text, is empty", () => {
    const empty = model("empty");
    assert.deepEqual([plan, "text", plan, plan, plan, "text"].map((v) => empty(v).text === ""), [false, false, true, false, false, true]);
  });

  test("count-off: one more (a restyled copy of the first), then one fewer (the first dropped)", () => {
    const queries = { queries: [{ query: "heat pumps aspect 1", objective: "Find figures." }, { query: "heat pumps aspect 2", objective: "More." }] };
    const more = countOff(queries, 1) as typeof queries;
    assert.equal(more.queries.length, 3);
    assert.deepEqual(more.queries[2], { query: "heat pumps aspect 1 (in more detail)", objective: "Find figures (in more detail)." });
    assert.deepEqual((countOff(queries, -1) as typeof queries).queries, [queries.queries[1]]);
    assert.deepEqual((countOff(plan, -1) as typeof plan).tasks.map((t) => t.type), ["ANALYSIS"], "a plan keeps its ANALYSIS task");
    assert.deepEqual(countOff({ questions: ["Which years?"] }, -1), { questions: ["Which years?", "Which years (in more detail)?"] }, "one is never made none");
    const off = model("count-off");
    assert.equal(off({ summary: "No list here." }).text, JSON.stringify({ summary: "No list here." }), "a reply without a counted list is left alone, and does not count");
    assert.deepEqual([1, 2].map(() => (JSON.parse(off(queries).text) as typeof queries).queries.length), [3, 1]);
  });
});

describe("value modes, walked along the wire schema", () => {
  test("leaves are classified by their schema and key", async () => {
    const schema = await wireSchema(handles);
    const kinds: Record<string, string> = {};
    mapLeaves({ ...chosen, file: "sales.csv" }, schema, (leaf) => void (kinds[`${leaf.key}:${String(leaf.value)}`] = leafKind(leaf)));
    assert.deepEqual(kinds, {
      "source:S3": "handle",
      "datasets:D1": "handle",
      "datasets:D2": "handle",
      "taskId:lit-1-1": "id",
      "evidenceTaskIds:lit-1-1": "id",
      "evidenceTaskIds:ana-1-2": "id",
      "url:http://127.0.0.1:4103/articles/Heat-Pumps": "url",
      "file:sales.csv": "file",
    });
    const taskKeys = await wireSchema(z.object({ evidenceTaskIds: z.array(z.enum(["lit-1-1", "ana-1-2"])), type: z.enum(["LITERATURE", "ANALYSIS"]) }));
    const enumKinds: string[] = [];
    mapLeaves({ evidenceTaskIds: ["ana-1-2"], type: "ANALYSIS" }, taskKeys, (leaf) => void enumKinds.push(leafKind(leaf)));
    assert.deepEqual(enumKinds, ["handle", "enum"], "an enum of ids is one of handles; an enum of judgements is not");
    const vSchema = await wireSchema(verifier);
    const seen: string[] = [];
    mapLeaves(verdicts, vSchema, (leaf) => void seen.push(`${leaf.key}@${leaf.position}:${leafKind(leaf)}`));
    assert.deepEqual(seen.slice(0, 5), ["id@0:int-id", "verdict@0:enum", "quote@0:quote", "explanation@0:text", "correction@0:other"]);
  });

  test("enum-case: enum and const values capitalised, then upper-cased and padded; the rest untouched", async () => {
    assert.equal(enumCase("supported", 1), "Supported");
    assert.equal(enumCase("supported", 2), " SUPPORTED ");
    assert.equal(enumCase("S3", 1), " S3 ", "a form that changes nothing is skipped");
    const enumCased = model("enum-case");
    const v = JSON.parse(enumCased(verdicts, await wireSchema(verifier)).text) as typeof verdicts;
    assert.deepEqual(v.verdicts.map((x) => x.verdict), ["Supported", " UNSUPPORTED ", "Partial"]);
    assert.equal(v.verdicts[0].quote, QUOTE);
    const step = JSON.parse(enumCased({ action: "search", think: "Look.", searchQuery: ["heat pumps"] }, await wireSchema(answer)).text);
    assert.deepEqual(step, { action: " SEARCH ", think: "Look.", searchQuery: ["heat pumps"] });
    const tasks = JSON.parse(enumCased(plan, await wireSchema(planner)).text) as typeof plan;
    assert.deepEqual(tasks.tasks.map((t) => t.type), ["Literature", " ANALYSIS "]);
    const decision = z.object({ shouldContinue: z.boolean(), confidence: z.enum(["low", "high"]) });
    const said = [true, false].map(async (shouldContinue) => JSON.parse(enumCased({ shouldContinue, confidence: "low" }, await wireSchema(decision)).text).shouldContinue);
    assert.deepEqual(await Promise.all(said), ["Yes", "No"], "booleans as yes/no words (or, in turn, as text)");
  });

  test("retyped: handles and ids in another case, quoted, bracketed or labelled, URLs and file names retyped, integer ids as strings", async () => {
    const retype = model("retyped");
    const out = JSON.parse(retype(chosen, await wireSchema(handles)).text);
    assert.deepEqual(out, {
      source: "[S3]",
      datasets: ['"d1"', "D2 (as listed)"],
      taskId: "[lit-1-1]",
      evidenceTaskIds: ['"lit-1-1"', "ANA-1-2"],
      url: "HTTP://127.0.0.1:4103/articles/Heat-Pumps",
    });
    assert.deepEqual([4, 5].map((n) => retyped("handle", "C12", () => n)), ["id: C12", "C012"], "a label before, a zero in the number");
    assert.equal(retypedUrl("https://a.example/x?q=1", 0), "https://a.example/x?q=1&utm_source=x");
    assert.equal(retypedUrl("https://a.example/x", 2), "https://a.example/x/");
    assert.equal(tableName("Sales 2024.csv"), "sales_2024");
    const ids = JSON.parse(retype(verdicts, await wireSchema(verifier)).text) as { verdicts: { id: unknown }[] };
    assert.deepEqual(ids.verdicts.map((x) => x.id), ["3", "7", "9"]);
    const files = JSON.parse(model("retyped")(plan, await wireSchema(planner)).text) as typeof plan;
    assert.deepEqual(files.tasks[1].datasetFilenames, ["sales"]);
  });

  test("near-quotes: each form differs from the quote and keeps most of its words", () => {
    const forms = [0, 1, 2, 3].map((variant) => nearQuote(QUOTE, variant));
    assert.equal(new Set([QUOTE, ...forms]).size, 5);
    assert.ok(forms[0].includes("\n"));
    assert.ok(!forms[1].includes(","));
    assert.ok(forms[2].startsWith("“") && forms[2].endsWith("”"));
    assert.ok(forms[3].includes("…"));
    for (const form of forms) {
      const kept = words(form).filter((w) => words(QUOTE).includes(w)).length;
      assert.ok(kept >= 0.75 * words(QUOTE).length, form);
    }
    assert.equal(nearQuote('He said "yes" and left', 2), "He said “yes” and left");
    const near = JSON.parse(model("near-quotes")({ action: "answer", think: "t", answer: "a", references: [{ url: "https://a.example/", exactQuote: QUOTE }] }).text);
    assert.notEqual(near.references[0].exactQuote, QUOTE);
    assert.equal(near.references[0].url, "https://a.example/");
  });

  test("generic: schema-valid, in its own words, repeating none of the ids it was given", async () => {
    const generic = model("generic");
    const v = verifier.parse(JSON.parse(generic(verdicts, await wireSchema(verifier)).text));
    assert.deepEqual(v.verdicts.map((x) => x.id), [0, 1, 2], "integer ids by position");
    assert.deepEqual(v.verdicts.map((x) => x.verdict), ["supported", "unsupported", "partial"], "judgements kept");
    assert.notEqual(v.verdicts[0].quote, QUOTE);
    assert.deepEqual(words(v.verdicts[0].quote).sort(), words(QUOTE).sort(), "the same words, reordered");
    assert.equal(v.verdicts[1].quote, "", "an empty quote stays empty");
    const h = handles.parse(JSON.parse(generic(chosen, await wireSchema(handles)).text));
    assert.deepEqual(h, { source: "S1", datasets: ["D1", "D1"], taskId: "Task 1", evidenceTaskIds: ["Task 1", "Task 2"], url: "http://127.0.0.1:4103/articles/heat-pumps/" });
    const p = planner.parse(JSON.parse(generic(plan, await wireSchema(planner)).text));
    assert.deepEqual(p.tasks.map((t) => [t.type, t.datasetFilenames]), [["LITERATURE", []], ["ANALYSIS", ["Sales data"]]]);
    const step = answer.parse(JSON.parse(generic({ action: "answer", think: "t", answer: "a", references: [{ url: "http://h.example/A/B", exactQuote: QUOTE }] }, await wireSchema(answer)).text));
    assert.deepEqual(step.action === "answer" && step.references[0].url, "http://h.example/a/b/");
    assert.equal(generic("# A report", undefined).text, "# A report", "plain text keeps its content");
    assert.equal(datasetDescription("expr.csv"), "Expr data");
    assert.equal(genericUrl("https://a.example/Path/"), "https://a.example/path/");
    assert.deepEqual(["taskId", "evidenceTaskIds", "itemId", "key", "queryId"].map(idLabel), ["Task", "Task", "Item", "Key", "Query"]);
    assert.equal(paraphrase("One two three."), "Two One three");
  });
});

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

describe("cut-off", () => {
  test("a long text reply is cut at 45%; continued, it restarts the cut sentence and is cut at 75%, then ends; JSON and short replies are whole", () => {
    const cut = model("cut-off");
    const report = Array.from({ length: 20 }, (_, i) => `Sentence number ${i} says something.`).join(" ");
    const first = cut(report);
    assert.deepEqual([first.text, first.finishReason], [report.slice(0, Math.floor(report.length * 0.45)), "length"]);
    const second = cut(report, undefined, { firstAttempt: false, earlier: first.text });
    const restart = first.text.lastIndexOf(". ") + 1;
    assert.deepEqual([second.text, second.finishReason], [report.slice(restart, Math.floor(report.length * 0.75)), "length"]);
    const sofar = report.slice(0, Math.floor(report.length * 0.75));
    const third = cut(report, undefined, { firstAttempt: false, earlier: sofar });
    assert.deepEqual([third.text, third.finishReason], [report.slice(sofar.lastIndexOf(". ") + 1), null]);
    assert.equal(cut("Short.").text, "Short.");
    assert.equal(cut(verdicts).text, JSON.stringify(verdicts));
  });
});

describe("bare-list", () => {
  test("an object that holds only a list is sent as the bare list; other objects as they are", () => {
    const bare = model("bare-list");
    assert.deepEqual(JSON.parse(bare(verdicts).text), verdicts.verdicts);
    assert.deepEqual(JSON.parse(bare({ queries: [], note: "x" }).text), { queries: [], note: "x" });
  });
});

describe("cut-json", () => {
  test("a JSON reply past 200 characters is cut at half, first attempt or not; shorter ones and text are whole", () => {
    const cut = model("cut-json");
    const long = { queries: Array.from({ length: 10 }, (_, i) => ({ query: `query number ${i}` })) };
    const text = JSON.stringify(long);
    for (const firstAttempt of [true, false]) {
      const reply = cut(long, undefined, { firstAttempt });
      assert.deepEqual([reply.text, reply.finishReason], [text.slice(0, Math.floor(text.length / 2)), "length"]);
    }
    assert.equal(cut({ n: 1 }).text, '{"n":1}');
    assert.equal(cut("Report.").text, "Report.");
  });
});

test("tables: each run of list items becomes a findings table, its citations in the Source column", () => {
  const text = "# R\n\n## Key findings\n\n- Prices fell 20% [1](https://a.example/x).\n- Capacity doubled [S2][S3].\n- No citation here.\n\nProse [1](https://a.example/x).";
  assert.equal(
    findingsTables(text),
    "# R\n\n## Key findings\n\n| Finding | Source |\n| --- | --- |\n| Prices fell 20%. | [1](https://a.example/x) |\n| Capacity doubled. | [S2][S3] |\n| No citation here. |  |\n\nProse [1](https://a.example/x).",
  );
});

test("paragraph-cites: a prose paragraph's citations move to its end; list items, headings and one-sentence lines stay", () => {
  const text = "## Details\n\nPrices fell 20% [1](https://a.example/x). Capacity doubled [2](https://b.example/y). Demand rose [1](https://a.example/x).\n\n- An item [S1]. Two [S2].\nOne sentence [S3].";
  assert.equal(
    paragraphCitations(text),
    "## Details\n\nPrices fell 20%. Capacity doubled. Demand rose [1](https://a.example/x)[2](https://b.example/y).\n\n- An item [S1]. Two [S2].\nOne sentence [S3].",
  );
});

test("worded-enums: judgements in words", () => {
  assert.deepEqual([wordedEnum("unsupported", 0), wordedEnum("partial", 0), wordedEnum("supported", 1), wordedEnum("LITERATURE", 0), wordedEnum("objective_met", 1)], ["not supported", "partially", "fully supported", "Literature (as judged)", "fully objective met"]);
});

test("list-text: a list of one as itself, none as empty text, choices joined; free texts of several as numbered lines", () => {
  const free: JsonSchema = { type: "string" };
  const choice: JsonSchema = { type: "string", enum: ["S1", "S2", "S3"] };
  assert.deepEqual([listAsText(["heat pumps"], free), listAsText([], free), listAsText(["S1", "S3"], choice), listAsText(["a", "b"], free), listAsText([{ x: 1 }], { type: "object" })], ["heat pumps", "", "S1, S3", "1. a\n2. b", [{ x: 1 }]]);
});

test("grouped: tagged items grouped by tag, untagged ones under 'other'; other replies untouched", () => {
  const read = { items: [{ content: "a", queries: ["Q1", "Q2"] }, { content: "b", queries: [] }] };
  assert.deepEqual(groupedByTag(read), { key: "items", groups: { Q1: ["a"], Q2: ["a"], other: ["b"] } });
  assert.equal(groupedByTag({ queries: [{ query: "q", objective: "o", extra: 1 }] }), undefined);
  assert.equal(groupedByTag({ verdicts: [], note: "" }), undefined);
});
