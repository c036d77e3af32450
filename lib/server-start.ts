import { configProblems, getEnv } from "./env";
import { runRegistry } from "./runs/registry";

/** Validates configuration (invalid values stop the start with a message naming the variable) and resumes runs. */
export async function startServer(): Promise<void> {
  let env;
  try {
    env = getEnv();
  } catch (error) {
    console.error(`[quarry] ${(error as Error).message}`);
    process.exit(1);
  }
  for (const problem of configProblems()) {
    console.warn(`[quarry] configuration: ${problem.message}`);
  }
  if (env.RESUME_ON_START) {
    const resumed = await runRegistry.resumeAll();
    if (resumed.length > 0) console.log(`[quarry] resuming ${resumed.length} interrupted research run(s): ${resumed.join(", ")}`);
  }
}
