// The extraction pool's worker (piscina): a plain .mjs file, so that the same file runs beside the
// bundled server (`next start`) and under tsx. It loads the TypeScript source through tsx's loader (a
// runtime dependency), registered here: a worker thread does not inherit its parent's loader hooks.
import { register } from "tsx/esm/api";

register();
const { extractTask } = await import("./extract-task.ts");

export default extractTask;
