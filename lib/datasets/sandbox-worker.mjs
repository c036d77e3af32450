// The query sandbox's process (lib/datasets/sandbox-process.ts starts it under an OS limit on its
// memory): it loads the TypeScript source through tsx's loader (a runtime dependency), registered
// here since a child process does not inherit its parent's loader hooks, and serves the parent's
// messages.
import { register } from "tsx/esm/api";

register();
await import("./sandbox-child.ts");
