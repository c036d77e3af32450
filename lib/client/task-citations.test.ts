import assert from "node:assert/strict";
import test from "node:test";
import { citedTaskId, linkTaskCitations } from "./task-citations";

const ids = new Set(["lit-1-1", "lit-2-1", "ana-2-3"]);

test("bracketed and bare task ids of the plan become links to the task", () => {
  assert.equal(linkTaskCitations("Warming accelerated [lit-2-1].", ids), "Warming accelerated [lit-2-1](#task-lit-2-1).");
  assert.equal(linkTaskCitations("See lit-1-1 and ana-2-3", ids), "See [lit-1-1](#task-lit-1-1) and [ana-2-3](#task-ana-2-3)");
});

test("ids not in the plan, longer ids and existing links stay as they are", () => {
  assert.equal(linkTaskCitations("Per [lit-9-9] and lit-1-10.", ids), "Per [lit-9-9] and lit-1-10.");
  assert.equal(linkTaskCitations("[lit-1-1](https://example.org)", ids), "[lit-1-1](https://example.org)");
});

test("a link's task id is read back; other links are not citations", () => {
  assert.equal(citedTaskId("#task-lit-2-1"), "lit-2-1");
  assert.equal(citedTaskId("https://example.org/#task-x"), null);
  assert.equal(citedTaskId(undefined), null);
});
