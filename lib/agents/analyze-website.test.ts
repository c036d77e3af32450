// A page read's query tags as models write them: a handle with their label after it is that handle.
import assert from "node:assert/strict";
import { test } from "node:test";
import { followUpObjective, readSchema } from "./analyze-website";

test("query tags written with a label after the handle name their queries", () => {
  const read = readSchema(3).parse({ items: [{ content: "Prices fell 14% in 2023.", queries: ["Q1 (battery prices)", "q3: heat pumps", "Q2 and Q3"] }] });
  assert.deepEqual(read.items[0].queries, ["Q1", "Q3"], "'Q2 and Q3' names two: neither is guessed");
});

test("a follow-up's objective is its search within its parent's planned objective, however deep", () => {
  const planned = "Find what storage costs per kWh in 2024.";
  const child = followUpObjective("battery prices Germany 2024", planned);
  assert.equal(child, `What the pages say on "battery prices Germany 2024", going deeper into: ${planned}`);
  assert.equal(followUpObjective("pumped hydro costs", child), `What the pages say on "pumped hydro costs", going deeper into: ${planned}`);
});

test("follow-ups under keys in a model's own convention reach their query (the reply conformed to the schema first)", async () => {
  const { z } = await import("zod");
  const { conform } = await import("../ai/conform");
  const schema = readSchema(2, [0]);
  const json = z.toJSONSchema(schema as never, { io: "input" }) as never;
  for (const reply of [{ items: [], followUps: { q1: ["tidal lagoon costs"] } }, { Items: [], "Follow Ups": { "Q1 (lagoons)": ["tidal lagoon costs"] } }]) {
    assert.deepEqual(schema.parse(conform(reply as never, json)).follow_ups, { Q1: ["tidal lagoon costs"] });
  }
});
