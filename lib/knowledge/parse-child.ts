// The document parsing worker process's entry (lib/knowledge/index-document.ts runs it in a sandbox
// pool; `npm run build` bundles it into .next/quarry/document-worker.mjs). Parsing and chunking both
// happen here, so that neither a hostile file's parse nor its many chunks touch the server's memory.
import { serveTasks } from "../sandbox/child";
import { prepareText } from "./prepare-text";

serveTasks({ prepare: prepareText });
