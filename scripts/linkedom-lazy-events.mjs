// Part of the extraction worker's bundle (scripts/build-extract-worker.mjs): linkedom (pinned at
// 0.18.14) gives every node it creates its own Map of event listeners, in a WeakMap, in its
// EventTarget's constructor. A 100 KB page makes tens of thousands of nodes, and those maps and weak
// map entries were over half of parsing's CPU and much of the extraction threads' garbage collection
// (bench/README.md: 120 large-web pages, 21.6 MB, parsed in 1.45 s before, 0.63 s after). Page
// extraction never listens to events; the bundled linkedom makes a node's map when a listener is
// first added, and is otherwise linkedom's own code. (Re-parenting linkedom's classes at run time
// instead made every node's prototype chain slow: parsing took 20% longer than before.)
import fs from "node:fs/promises";

/** linkedom's event-target.js with the listener map made on first use. Throws if the source is not the expected one. */
export function lazyEventTargetSource(source) {
  const edits = [
    ["  constructor() {\n    wm.set(this, new Map);\n  }", "  constructor() {\n  }"],
    [
      "  addEventListener(type, listener, options) {\n    const map = wm.get(this);",
      "  addEventListener(type, listener, options) {\n    let map = wm.get(this);\n    if (!map) wm.set(this, (map = new Map));",
    ],
    ["  removeEventListener(type, listener) {\n    const map = wm.get(this);\n    if (map.has(type)) {", "  removeEventListener(type, listener) {\n    const map = wm.get(this);\n    if (map && map.has(type)) {"],
  ];
  let out = source;
  for (const [from, to] of edits) {
    if (!out.includes(from)) throw new Error(`linkedom's event-target.js is not the one this patch expects (linkedom is pinned at 0.18.14): missing ${JSON.stringify(from.split("\n")[1] ?? from)}`);
    out = out.replace(from, to);
  }
  return out;
}

/** The esbuild plugin that applies it to linkedom's ES module build. */
export const lazyLinkedomEvents = {
  name: "linkedom-lazy-events",
  setup(build) {
    build.onLoad({ filter: /[\\/]linkedom[\\/]esm[\\/]interface[\\/]event-target\.js$/ }, async (args) => ({
      contents: lazyEventTargetSource(await fs.readFile(args.path, "utf8")),
      loader: "js",
    }));
  },
};
