import { ResearchShell } from "@/components/research-shell";

export default async function ResearchLayout({ children, params }: { children: React.ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ResearchShell researchId={id}>{children}</ResearchShell>;
}
