// The extraction worker's linkedom: each node's listener map made on first use (scripts/linkedom-lazy-events.mjs).
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { build } from "esbuild";
import { lazyEventTargetSource, lazyLinkedomEvents } from "./linkedom-lazy-events.mjs";

const original = fs.readFileSync(path.join(import.meta.dirname, "..", "node_modules", "linkedom", "esm", "interface", "event-target.js"), "utf8");

test("the patch makes no map in linkedom's EventTarget constructor, and refuses a source it does not know", () => {
  assert.match(original, /constructor\(\) \{\s*wm\.set\(this, new Map\);/, "linkedom's own constructor makes a map per node");
  const patched = lazyEventTargetSource(original);
  assert.doesNotMatch(patched, /constructor\(\) \{\s*wm\.set/);
  assert.throws(() => lazyEventTargetSource(original.replace("wm.set(this, new Map);", "this.listeners = new Map;")), /not the one this patch expects/);
});

test("linkedom bundled with the patch: parsing works, listeners are added, bubble, run once and are removed as before", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-linkedom-"));
  const outfile = path.join(dir, "linkedom.mjs");
  try {
    await build({
      stdin: { contents: 'export { parseHTML, Event } from "linkedom";', resolveDir: import.meta.dirname, loader: "js" },
      bundle: true, platform: "node", format: "esm", outfile, logLevel: "silent", plugins: [lazyLinkedomEvents],
    });
    assert.match(fs.readFileSync(outfile, "utf8"), /if \(!map\) wm\.set\(this, map = (\/\* @__PURE__ \*\/ )?new Map\(\)\)/, "the bundle has the patched EventTarget");
    const linkedom = (await import(outfile)) as typeof import("linkedom");
    const { parseHTML } = linkedom;
    // linkedom's Event, typed as the DOM's (its own types lack a few of the DOM's fields).
    const Event = linkedom.Event as unknown as typeof globalThis.Event;
    const { document } = parseHTML("<html><body><div id=outer><p id=inner>Text</p></div></body></html>");
    const inner = document.getElementById("inner")!;
    const outer = document.getElementById("outer")!;
    assert.equal(inner.textContent, "Text");
    const heard: string[] = [];
    const onInner = () => heard.push("inner");
    inner.addEventListener("ping", onInner);
    inner.addEventListener("ping", () => heard.push("inner once"), { once: true });
    outer.addEventListener("ping", { handleEvent: () => heard.push("outer") });
    assert.equal(inner.dispatchEvent(new Event("ping", { bubbles: true })), true);
    inner.dispatchEvent(new Event("ping"));
    inner.removeEventListener("ping", onInner);
    inner.dispatchEvent(new Event("ping", { bubbles: true }));
    assert.deepEqual(heard, ["inner", "inner once", "outer", "inner", "outer"]);
    assert.equal(document.body.dispatchEvent(new Event("ping")), true, "a node with no listeners dispatches too");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
