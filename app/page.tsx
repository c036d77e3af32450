import { connection } from "next/server";
import { redirect } from "next/navigation";
import { getSessionUserId } from "@/lib/auth/caller";
import { researchLimits } from "@/lib/research/estimate";
import { loadDraft } from "@/lib/research/service";
import { NewResearchWizard, type ResumedDraft } from "@/components/new-research-wizard";

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
  return <NewResearchWizard limits={researchLimits()} resume={await resumedDraft(typeof draft === "string" ? draft : undefined)} />;
}
