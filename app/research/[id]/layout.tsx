import { getEnv } from "@/lib/env";
import { ResearchShell } from "@/components/research-shell";

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
  return (
    <ResearchShell researchId={id} limits={rerunLimits()}>
      {children}
    </ResearchShell>
  );
}
