import type { Metadata } from "next";
import { SourcesPanel } from "@/components/sources-panel";

export const metadata: Metadata = { title: "Sources" };

export default function ResearchSourcesPage() {
  return <SourcesPanel />;
}
