// The extraction pool's worker (piscina) when running from sources (tsx: tests, `npm run worker`, or a
// built server whose .next/quarry/extract-worker.mjs is missing): it loads the TypeScript source
// through tsx's loader (a runtime dependency), registered here: a worker thread does not inherit its
// parent's loader hooks. The built server's threads load the bundle `npm run build` makes instead.
import { register } from "tsx/esm/api";

register();
const { extractTask } = await import("./extract-task.ts");

export default extractTask;
