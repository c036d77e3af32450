// A page read's query tags as models write them: a handle with their label after it is that handle.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readSchema } from "./analyze-website";

test("query tags written with a label after the handle name their queries", () => {
  const read = readSchema(3).parse({ items: [{ content: "Prices fell 14% in 2023.", queries: ["Q1 (battery prices)", "q3: heat pumps", "Q2 and Q3"] }] });
  assert.deepEqual(read.items[0].queries, ["Q1", "Q3"], "'Q2 and Q3' names two: neither is guessed");
});
