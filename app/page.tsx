import { connection } from "next/server";
import { redirect } from "next/navigation";
import { getSessionUserId } from "@/lib/auth/caller";
import { getEnv, loadEnv } from "@/lib/env";
import { wizardEstimates } from "@/lib/research/estimate";
import { loadDraft } from "@/lib/research/service";
import { NewResearchWizard, type ResumedDraft, type WizardLimits } from "@/components/new-research-wizard";

function limits(): WizardLimits {
  try {
    const env = getEnv();
    return { maxDepth: env.MAX_DEPTH, maxBreadth: env.MAX_BREADTH, maxQuestions: env.MAX_QUESTIONS, estimates: wizardEstimates(env) };
  } catch {
    return { maxDepth: 5, maxBreadth: 10, maxQuestions: 10, estimates: wizardEstimates(loadEnv({}).env) };
  }
}

/** `?draft=<id>` continues that draft in the wizard (History links drafts here); a started research opens its page. */
async function resumedDraft(id: string | undefined): Promise<ResumedDraft | undefined> {
  if (!id) return undefined;
  const userId = await getSessionUserId();
  const found = userId ? await loadDraft({ id, userId }) : null;
  if (!found) return undefined;
  if (found.status !== "draft") redirect(`/research/${encodeURIComponent(id)}`);
  return found.draft;
}

export default async function NewResearchPage({ searchParams }: { searchParams: Promise<{ draft?: string | string[] }> }) {
  await connection(); // the limits come from the environment at request time
  const { draft } = await searchParams;
  return <NewResearchWizard limits={limits()} resume={await resumedDraft(typeof draft === "string" ? draft : undefined)} />;
}
