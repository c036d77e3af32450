import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { conform, type JsonSchemaNode } from "./conform";

const shapeOf = (schema: z.ZodType) => z.toJSONSchema(schema) as JsonSchemaNode;

const verdicts = z.object({ verdicts: z.array(z.object({ id: z.enum(["C1", "C2"]), verdict: z.enum(["supported", "unsupported"]), score: z.number() })) });

test("enum values in another case or padded, numbers as strings and keys in another case are brought to the schema", () => {
  const reply = { Verdicts: [{ id: " c2 ", verdict: "Supported", score: "0.5" }] };
  assert.deepEqual(verdicts.parse(conform(reply, shapeOf(verdicts))), { verdicts: [{ id: "C2", verdict: "supported", score: 0.5 }] });
});

test("a yes/no as models write it is the boolean: 'true', 'Yes', 'no', 1, 0; other words are left for validation", () => {
  const decision = z.object({ shouldContinue: z.boolean() });
  for (const [written, meant] of [["true", true], [" Yes ", true], ["no", false], ["FALSE", false], [1, true], [0, false]] as const) {
    assert.deepEqual(conform({ shouldContinue: written }, shapeOf(decision)), { shouldContinue: meant }, String(written));
  }
  assert.deepEqual(conform({ shouldContinue: "maybe" }, shapeOf(decision)), { shouldContinue: "maybe" });
  assert.deepEqual(conform({ shouldContinue: 2 }, shapeOf(decision)), { shouldContinue: 2 });
});

test("a list written as text: a list of one, or choices apart by commas or 'and'; free text is not split", () => {
  const step = z.object({ searchQuery: z.array(z.string()), evidence: z.array(z.enum(["S1", "S2", "S3"])) });
  assert.deepEqual(conform({ searchQuery: "heat pumps, Europe 2024", evidence: "S1, S3" }, shapeOf(step)), { searchQuery: ["heat pumps, Europe 2024"], evidence: ["S1", "S3"] });
  assert.deepEqual(conform({ searchQuery: "", evidence: "s2 and S3" }, shapeOf(step)), { searchQuery: [], evidence: ["S2", "S3"] });
  assert.deepEqual(conform({ searchQuery: ["a"], evidence: "S1, made-up:9" }, shapeOf(step)), { searchQuery: ["a"], evidence: ["S1", "made-up:9"] }, "a piece that names nothing is a piece: validation (or the caller) drops it");
  assert.deepEqual(conform({ searchQuery: ["a"], evidence: "the first source, and the third" }, shapeOf(step)), { searchQuery: ["a"], evidence: "the first source, and the third" }, "words are no list of choices");
});

test("a choice written as a tool call is unfolded: {search: {…}}, {action, arguments: {…}}, arguments as a string of JSON", () => {
  const step = z.discriminatedUnion("action", [
    z.object({ action: z.literal("search"), think: z.string(), searchQuery: z.array(z.string()) }),
    z.object({ action: z.literal("answer"), think: z.string(), answer: z.string() }),
  ]);
  const meant = { action: "search", think: "Look.", searchQuery: ["heat pumps"] };
  for (const written of [
    { search: { think: "Look.", searchQuery: ["heat pumps"] } },
    { action: "search", arguments: { think: "Look.", searchQuery: ["heat pumps"] } },
    { action: "Search", parameters: JSON.stringify({ think: "Look.", searchQuery: ["heat pumps"] }) },
  ]) {
    assert.deepEqual(step.parse(conform(written, shapeOf(step))), meant, JSON.stringify(written));
  }
  assert.deepEqual(conform({ action: "answer", think: "t", answer: "a" }, shapeOf(step)), { action: "answer", think: "t", answer: "a" }, "a plain reply is left as it is");
});

test("tagged items written grouped by their tag are the items, each with its tags; an item in two groups is one", () => {
  const read = z.object({ items: z.array(z.object({ content: z.string(), queries: z.array(z.enum(["Q1", "Q2"])) })) });
  const meant = { items: [{ content: "Prices fell 20%.", queries: ["Q1", "Q2"] }, { content: "Capacity doubled.", queries: ["Q2"] }, { content: "Sales rose.", queries: [] }] };
  const groups = { Q1: ["Prices fell 20%."], "q2 (storage)": ["Prices fell 20%.", "Capacity doubled."], other: "Sales rose." };
  assert.deepEqual(read.parse(conform({ items: groups }, shapeOf(read))), meant);
  assert.deepEqual(read.parse(conform(groups, shapeOf(read))), meant, "with no list around them");
  assert.deepEqual(read.parse(conform({ Q1: ["Prices fell 20%."] }, shapeOf(read))), { items: [{ content: "Prices fell 20%.", queries: ["Q1"] }] }, "a single group keeps its tag");
  assert.equal(read.safeParse(conform({ items: { facts: ["a"], more: ["b"] } }, shapeOf(read))).success, false, "no group names a tag: not guessed");
});

test("keys in another convention are the schema's: snake_case, kebab-case or Title Case for camelCase, and back", () => {
  const discovery = z.object({ keyInsights: z.array(z.object({ exactQuote: z.string(), evidenceTaskIds: z.array(z.string()) })), shouldContinue: z.boolean() });
  const reply = { key_insights: [{ "Exact Quote": "q", "evidence-task-ids": ["t1"] }], should_continue: "true" };
  assert.deepEqual(discovery.parse(conform(reply, shapeOf(discovery))), { keyInsights: [{ exactQuote: "q", evidenceTaskIds: ["t1"] }], shouldContinue: true });
  const snake = z.object({ search_query: z.string() });
  assert.deepEqual(conform({ searchQuery: "x" }, shapeOf(snake)), { search_query: "x" });
  // A key the schema has as it is wins over one that only resembles it.
  assert.deepEqual(conform({ search_query: "kept", SearchQuery: "dropped" }, shapeOf(snake)), { search_query: "kept" });
});

test("a wrapper object is taken off, and a lone list becomes the lone list property", () => {
  const queries = z.object({ queries: z.array(z.object({ query: z.string() })) });
  assert.deepEqual(conform({ response: { queries: [{ query: "a" }] } }, shapeOf(queries)), { queries: [{ query: "a" }] });
  assert.deepEqual(conform({ data: { result: { queries: [] } } }, shapeOf(queries)), { queries: [] });
  assert.deepEqual(conform({ items: [{ query: "b" }] }, shapeOf(queries)), { queries: [{ query: "b" }] });
});

test("the frame of a JSON Schema around the instance is taken off; the schema sent back as shown is not taken for an instance", () => {
  const plan = z.object({ queries: z.array(z.object({ query: z.string() })), note: z.string() });
  const instance = { queries: [{ query: "a" }], note: "n" };
  assert.deepEqual(conform({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: instance }, shapeOf(plan)), instance);
  assert.deepEqual(conform({ type: "object", properties: instance, required: ["queries", "note"] }, shapeOf(plan)), instance);
  const echoed = conform(shapeOf(plan) as never, shapeOf(plan));
  assert.equal(plan.safeParse(echoed).success, false, "the schema itself is no plan: validation refuses it (and the call is repaired)");
  // A schema whose own properties are named so keeps them.
  const typed = z.object({ type: z.string(), properties: z.array(z.string()) });
  assert.deepEqual(conform({ type: "t", properties: ["p"] }, shapeOf(typed)), { type: "t", properties: ["p"] });
});

test("the bare list for an object that holds only that list becomes the object; not where another property is required", () => {
  const queries = z.object({ queries: z.array(z.object({ query: z.string() })), note: z.string().optional() });
  assert.deepEqual(conform([{ query: "a" }, { query: "b" }], shapeOf(queries)), { queries: [{ query: "a" }, { query: "b" }] });
  assert.deepEqual(conform([{ query: "a" }], shapeOf(queries)), { queries: [{ query: "a" }] });
  // The wanted object itself in a list of one is that object.
  assert.deepEqual(conform([{ queries: [{ query: "c" }] }], shapeOf(queries)), { queries: [{ query: "c" }] });
  const plan = z.object({ tasks: z.array(z.object({ id: z.string() })), done: z.boolean() });
  assert.deepEqual(conform([{ id: "t1" }, { id: "t2" }], shapeOf(plan)), [{ id: "t1" }, { id: "t2" }]);
});

test("one object where a list of such objects is wanted becomes a list of one; nullable and optional fields keep null", () => {
  const schema = z.object({ tasks: z.array(z.object({ kind: z.enum(["LITERATURE", "ANALYSIS"]), note: z.string().nullable() })) });
  assert.deepEqual(conform({ tasks: { kind: "analysis", note: null } }, shapeOf(schema)), { tasks: [{ kind: "ANALYSIS", note: null }] });
});

test("what cannot be brought to the schema is left for validation to report", () => {
  const shape = shapeOf(verdicts);
  const reply = { verdicts: [{ id: "C9", verdict: "maybe", score: "lots" }] };
  assert.deepEqual(conform(reply, shape), reply);
});

test("a discriminated union's variant is chosen by its fixed value, in any case, and that value folded", () => {
  const schema = z.object({
    step: z.discriminatedUnion("action", [
      z.object({ action: z.literal("search"), queries: z.array(z.string()) }),
      z.object({ action: z.literal("visit"), targets: z.array(z.string()) }),
    ]),
  });
  assert.deepEqual(schema.parse(conform({ step: { action: " VISIT ", Targets: ["U1"] } }, shapeOf(schema))), { step: { action: "visit", targets: ["U1"] } });
  assert.deepEqual(schema.parse(conform({ step: { action: "Search", queries: ["a"] } }, shapeOf(schema))), { step: { action: "search", queries: ["a"] } });
});

test("an object or a list sent as a string of JSON is parsed where the schema wants one", () => {
  const schema: JsonSchemaNode = { type: "object", properties: { queries: { type: "array", items: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } }, note: { type: "string" } }, required: ["queries"] };
  assert.deepEqual(conform({ queries: '[{"query": "heat pumps"},]', note: "[not json" }, schema), { queries: [{ query: "heat pumps" }], note: "[not json" });
  assert.deepEqual(conform({ response: '{"queries": [{"query": "a"}]}' }, schema), { queries: [{ query: "a" }] });
  assert.deepEqual(conform('{"queries": []}', schema), { queries: [] });
  assert.equal(conform("{ not json", schema), "{ not json", "what does not parse is left for validation");
});

test("a bare string where an object was asked for is the object when it can only be one thing: its one required text, its lists empty", () => {
  const read = z.object({ items: z.array(z.object({ content: z.string(), queries: z.array(z.enum(["Q1", "Q2"])) })) });
  assert.deepEqual(read.parse(conform({ items: ["Prices fell 20% in 2024.", { content: "Sales rose.", queries: ["Q2"] }] }, shapeOf(read))), {
    items: [
      { content: "Prices fell 20% in 2024.", queries: [] },
      { content: "Sales rose.", queries: ["Q2"] },
    ],
  });
  // A choice to make (an enum, a second text): not guessed, left for validation.
  const tasks = z.object({ tasks: z.array(z.object({ type: z.enum(["LITERATURE", "ANALYSIS"]), objective: z.string() })) });
  assert.deepEqual(conform({ tasks: ["Find the prices"] }, shapeOf(tasks)), { tasks: ["Find the prices"] });
  const refs = z.object({ references: z.array(z.object({ source: z.string(), exactQuote: z.string() })) });
  assert.deepEqual(conform({ references: ["S1"] }, shapeOf(refs)), { references: ["S1"] });
});

test("null for an empty text or list, or such a key left out, is that empty value; a choice is not made up", () => {
  const schema: JsonSchemaNode = {
    type: "object",
    required: ["verdicts"],
    properties: {
      verdicts: {
        type: "array",
        items: {
          type: "object",
          required: ["id", "verdict", "quote", "correction", "urls"],
          properties: { id: { type: "string", enum: ["C1", "C2"] }, verdict: { type: "string", enum: ["supported", "unsupported"] }, quote: { type: "string" }, correction: { type: "string" }, urls: { type: "array", items: { type: "string" }, description: "Its sources; empty when none" } },
        },
      },
    },
  };
  assert.deepEqual(conform({ verdicts: [{ id: "C1", verdict: "unsupported", quote: null, correction: null, urls: null }, { id: "C2", verdict: "supported", quote: "It fell." }] }, schema), {
    verdicts: [
      { id: "C1", verdict: "unsupported", quote: "", correction: "", urls: [] },
      { id: "C2", verdict: "supported", quote: "It fell.", correction: "", urls: [] },
    ],
  });
  // An enum left null or out is a choice not made: left for validation (a repair).
  assert.deepEqual(conform({ verdicts: [{ id: "C1", verdict: null, quote: "x", correction: "", urls: [] }] }, schema), { verdicts: [{ id: "C1", verdict: null, quote: "x", correction: "", urls: [] }] });
  assert.deepEqual(conform({ verdicts: [{ id: "C1", quote: "x", correction: "", urls: [] }] }, schema), { verdicts: [{ id: "C1", quote: "x", correction: "", urls: [] }] });
  // A key of the model's own beside the left-out one may be that one renamed: nothing is filled in.
  assert.deepEqual(conform({ verdicts: [{ id: "C1", verdict: "supported", passage: "It fell.", correction: "", urls: [] }] }, schema), { verdicts: [{ id: "C1", verdict: "supported", passage: "It fell.", correction: "", urls: [] }] });
  // A list left out that the schema does not say may be empty, or an object with nothing in it: asked again.
  const plan: JsonSchemaNode = { type: "object", required: ["queries"], properties: { queries: { type: "array", items: { type: "string" } } } };
  assert.deepEqual(conform({}, plan), {});
  const facts: JsonSchemaNode = { type: "object", required: ["factualIds"], properties: { factualIds: { type: "array", items: { type: "string" }, description: "Ids of the sentences that state facts; empty when none do" } } };
  assert.deepEqual(conform({}, facts), { factualIds: [] });
  const summary: JsonSchemaNode = { type: "object", required: ["summary"], properties: { summary: { type: "string" } } };
  assert.deepEqual(conform({}, summary), {});
  // Where the schema takes null, null stays.
  assert.equal(conform(null, { anyOf: [{ type: "string" }, { type: "null" }] }), null);
});

test("a word for nothing ('None', 'N/A', '-') is nothing where the schema has one: null, an empty list, a text it says may be empty", () => {
  const step = z.object({
    sql: z.string().nullable(),
    chart: z.object({ x: z.string() }).nullable(),
    tags: z.array(z.enum(["Q1", "Q2"])),
    correction: z.string().describe("The corrected sentence; empty when there is none"),
    answer: z.string(),
  });
  assert.deepEqual(conform({ sql: "None", chart: "N/A", tags: "none", correction: "N/A.", answer: "None" }, shapeOf(step)), { sql: null, chart: null, tags: [], correction: "", answer: "None" });
  assert.deepEqual(conform({ sql: " null ", chart: "-", tags: [], correction: "No correction needed", answer: "-" }, shapeOf(step)), { sql: null, chart: null, tags: [], correction: "", answer: "-" });
  // A text that says something is kept.
  assert.deepEqual(conform({ sql: "SELECT 1", chart: null, tags: ["Q1"], correction: "None of the sources says so.", answer: "No" }, shapeOf(step)), { sql: "SELECT 1", chart: null, tags: ["Q1"], correction: "None of the sources says so.", answer: "No" });
});

test("free texts written as a list's lines in one text ('1. …\\n2. …', '- …') are the list's items; one text of lines is not split", () => {
  const questions = z.object({ questions: z.array(z.string()) });
  assert.deepEqual(conform({ questions: "1. What period should it cover?\n2. Which regions matter most?" }, shapeOf(questions)), { questions: ["What period should it cover?", "Which regions matter most?"] });
  assert.deepEqual(conform({ questions: "- What period?\n- Which regions?\n" }, shapeOf(questions)), { questions: ["What period?", "Which regions?"] });
  assert.deepEqual(conform({ questions: "What period should it cover?\nAnd for which regions?" }, shapeOf(questions)), { questions: ["What period should it cover?\nAnd for which regions?"] });
});
