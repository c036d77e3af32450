// A sandbox worker process running from sources (lib/sandbox/worker-file.ts): it registers tsx's
// loader (a runtime dependency; a child process does not inherit its parent's loader hooks) and
// loads the worker's TypeScript entry, given as its argument.
import { pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

register();
await import(pathToFileURL(process.argv[2]).href);
