import { redirect } from "next/navigation";
import { ResearchShell } from "@/components/research-shell";
import { getSessionUserId } from "@/lib/auth/caller";
import { researchLimits } from "@/lib/research/estimate";
import { loadDraft } from "@/lib/research/service";

export default async function ResearchLayout({ children, params }: { children: React.ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  // A draft was never started: its page is the wizard, at the answers step.
  const userId = await getSessionUserId();
  if (userId && (await loadDraft({ id, userId }))?.status === "draft") redirect(`/?draft=${encodeURIComponent(id)}`);
  return (
    <ResearchShell researchId={id} limits={researchLimits()}>
      {children}
    </ResearchShell>
  );
}
