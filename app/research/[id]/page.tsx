import type { Metadata } from "next";
import { QueryTreePanel } from "@/components/query-tree-panel";

export const metadata: Metadata = { title: "Research" };

export default function ResearchTreePage() {
  return <QueryTreePanel />;
}
