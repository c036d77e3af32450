import { redirect } from "next/navigation";
import { getEnv } from "@/lib/env";
import { ResearchShell } from "@/components/research-shell";
import { getSessionUserId } from "@/lib/auth/caller";
import { loadDraft } from "@/lib/research/service";

/** The depth × breadth a re-run may choose, from the environment (as the wizard's). */
function rerunLimits() {
  try {
    const env = getEnv();
    return { maxDepth: env.MAX_DEPTH, maxBreadth: env.MAX_BREADTH };
  } catch {
    return { maxDepth: 5, maxBreadth: 10 };
  }
}

export default async function ResearchLayout({ children, params }: { children: React.ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  // A draft was never started: its page is the wizard, at the answers step.
  const userId = await getSessionUserId();
  if (userId && (await loadDraft({ id, userId }))?.status === "draft") redirect(`/?draft=${encodeURIComponent(id)}`);
  return (
    <ResearchShell researchId={id} limits={rerunLimits()}>
      {children}
    </ResearchShell>
  );
}
