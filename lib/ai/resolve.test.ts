import assert from "node:assert/strict";
import { test } from "node:test";
import { choicesOf, normalUrl, resolveChoice, resolveEnumValue } from "./resolve";

const sources = choicesOf("S", ["https://a.example/Battery-Prices", "https://www.b.example/grid?id=4", "https://c.example/"], (url) => [url]);
const datasets = choicesOf("D", [{ file: "expr.csv", table: "expr" }, { file: "Sales 2024.xlsx", table: "sales_2024" }], (d) => [d.file, d.table]);

test("a handle resolves as written, and in another case, padded, quoted or bracketed", () => {
  for (const written of ["S2", "s2", " S2 ", '"S2"', "[S2]", "(s2).", "`S2`", "**S2**", "Source 2", "source #2"]) {
    assert.equal(resolveChoice(written, sources)?.handle, "S2", written);
  }
});

test("a retyped URL resolves through its normal form: case of the host, www, a trailing slash, an added query string", () => {
  assert.equal(resolveChoice("HTTPS://A.EXAMPLE/Battery-Prices/", sources)?.handle, "S1");
  assert.equal(resolveChoice("https://b.example/grid?id=4&utm_source=x", sources)?.handle, "S2");
  assert.equal(resolveChoice("https://a.example/Battery-Prices?ref=feed", sources)?.handle, "S1", "an added query string");
  assert.equal(resolveChoice("<https://c.example>", sources)?.handle, "S3");
  assert.equal(resolveChoice("https://d.example/other", sources), undefined, "a URL that is not there");
  assert.equal(normalUrl("https://WWW.Example.com:443/a/b/#top"), "example.com/a/b");
});

test("a dataset resolves by its file name, its table name, or its stem; the only candidate whatever its name", () => {
  assert.equal(resolveChoice("EXPR.CSV", datasets)?.value.file, "expr.csv");
  assert.equal(resolveChoice("expr", datasets)?.value.file, "expr.csv");
  assert.equal(resolveChoice("sales_2024", datasets)?.value.file, "Sales 2024.xlsx");
  assert.equal(resolveChoice("sales 2024.csv", datasets)?.value.file, "Sales 2024.xlsx", "stem of a file name with another extension");
  assert.equal(resolveChoice("Expression data", datasets), undefined, "two candidates: no guess");
  assert.equal(resolveChoice("Expression data", datasets.slice(0, 1))?.value.file, "expr.csv", "the only candidate");
  assert.equal(resolveChoice("Expression data", datasets.slice(0, 1), { only: false }), undefined);
});

test("an ambiguous near-miss resolves to nothing", () => {
  const twins = choicesOf("T", ["Alpha", "alpha "], (name) => [name]);
  assert.equal(resolveChoice("ALPHA", twins), undefined);
});

test("enum values are matched up to case and padding", () => {
  assert.equal(resolveEnumValue("Search", ["search", "visit", "answer"]), "search");
  assert.equal(resolveEnumValue(" LITERATURE ", ["LITERATURE", "ANALYSIS"]), "LITERATURE");
  assert.equal(resolveEnumValue("Supported.", ["supported", "partial", "unsupported"]), "supported");
  assert.equal(resolveEnumValue("maybe", ["supported", "partial"]), undefined);
});

test("a handle with the model's label after it is that handle, unless the label names another", () => {
  const queries = choicesOf("Q", ["a", "b", "c"]);
  for (const [value, handle] of [["Q1 (battery prices)", "Q1"], ["Q2: prices", "Q2"], ["q3 – heat pumps", "Q3"], ["[Q2] the second", "Q2"], ["Q1 - Q1 again", "Q1"]] as const) {
    assert.equal(resolveChoice(value, queries, { only: false })?.handle, handle, value);
  }
  for (const value of ["Q1 and Q2", "Q1, Q3", "Q4 (none such)", "Query Q1 of many", "Figure Q2 shows"]) assert.equal(resolveChoice(value, queries, { only: false }), undefined, value);
  // A label before the handle, or the handle's number written with zeros (each resolved to nothing before).
  const sentences = choicesOf("C", ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]);
  for (const [value, handle] of [["Sentence C1", "C1"], ["id: C2", "C2"], ["claim #C12", "C12"], ["C03", "C3"], ["sentence_id = \"C4\"", "C4"], ["Sentence [C5]", "C5"]] as const) {
    assert.equal(resolveChoice(value, sentences, { only: false })?.handle, handle, value);
  }
  for (const value of ["Sentence C13", "Source S1", "Sentences C1 and C2", "C1 C2"]) assert.equal(resolveChoice(value, sentences, { only: false }), undefined, value);
  const tasks = [{ handle: "lit-1-2", value: 1 }, { handle: "ana-1-1", value: 2 }];
  assert.equal(resolveChoice("lit-1-2 (solar review)", tasks, { only: false })?.value, 1);
  assert.equal(resolveChoice("ana-1-1: sales by region", tasks, { only: false })?.value, 2);
});

test("an enum value in the model's own words is the option it means, when only one fits", () => {
  const verdicts = ["supported", "partial", "unsupported"];
  for (const [written, meant] of [["partially_supported", "partial"], ["Partially supported", "partial"], ["partly", "partial"], ["not supported", "unsupported"], ["NOT_SUPPORTED", "unsupported"], ["fully supported", "supported"], ["Supported by the source", "supported"]] as const) {
    assert.equal(resolveEnumValue(written, verdicts), meant, written);
  }
  assert.equal(resolveEnumValue("Literature review", ["LITERATURE", "ANALYSIS"]), "LITERATURE");
  assert.equal(resolveEnumValue("not relevant", ["relevant", "irrelevant"]), "irrelevant");
  assert.equal(resolveEnumValue("supported partially", verdicts), "partial");
  for (const written of ["no support", "maybe", "not sure", "contradicted", "supported, not fully"]) assert.equal(resolveEnumValue(written, verdicts), undefined, written);
});
