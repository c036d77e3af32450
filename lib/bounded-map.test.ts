import assert from "node:assert/strict";
import { test } from "node:test";
import { BoundedMap } from "./bounded-map";

test("a bounded map keeps the latest entries within its budget, oldest out first", () => {
  const map = new BoundedMap<string, number>(3);
  for (const key of ["a", "b", "c", "d"]) map.getOrAdd(key, () => key.charCodeAt(0));
  assert.equal(map.size, 3);
  assert.equal(map.get("a"), undefined);
  assert.deepEqual(["b", "c", "d"].map((k) => map.get(k)), [98, 99, 100]);
});

test("the first value for a key stands, and make is not called for a kept key", () => {
  const map = new BoundedMap<string, string>(10);
  assert.equal(map.getOrAdd("k", () => "first"), "first");
  assert.equal(map.getOrAdd("k", () => assert.fail("made again")), "first");
});

test("entries weigh what weigh says; one heavier than the whole budget is still kept, alone", () => {
  const map = new BoundedMap<string, string>(10, (text) => text.length);
  map.getOrAdd("a", () => "xxxx");
  map.getOrAdd("b", () => "xxxx");
  assert.equal(map.size, 2);
  map.getOrAdd("c", () => "xxxx");
  assert.deepEqual([map.get("a"), map.size], [undefined, 2], "12 > 10: the oldest went");
  map.getOrAdd("huge", () => "x".repeat(50));
  assert.deepEqual([map.size, map.get("huge")?.length], [1, 50]);
  map.getOrAdd("d", () => "xx");
  assert.deepEqual([map.get("huge"), map.get("d")], [undefined, "xx"]);
});
