import { connection } from "next/server";
import { getEnv } from "@/lib/env";
import { NewResearchWizard, type WizardLimits } from "@/components/new-research-wizard";

function limits(): WizardLimits {
  try {
    const env = getEnv();
    return { maxDepth: env.MAX_DEPTH, maxBreadth: env.MAX_BREADTH, maxQuestions: env.MAX_QUESTIONS };
  } catch {
    return { maxDepth: 5, maxBreadth: 10, maxQuestions: 10 };
  }
}

export default async function NewResearchPage() {
  await connection(); // the limits come from the environment at request time
  return <NewResearchWizard limits={limits()} />;
}
