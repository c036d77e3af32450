// The tree's queries moved to lib/db/tree.ts; this re-export keeps `import * as store from "./store"` working.
export * from "../db/tree";
