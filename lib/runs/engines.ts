// The composition root of the run platform: every engine, registered with the registry. Anything
// that starts, cancels or takes over runs imports the registry from here.
import { answerEngine } from "../answer/engine";
import { deepResearchEngine } from "../deep-research/engine";
import { treeEngine } from "../research/engine";
import { runRegistry } from "./registry";

runRegistry.register(treeEngine);
runRegistry.register(answerEngine);
runRegistry.register(deepResearchEngine);

export { runRegistry };
