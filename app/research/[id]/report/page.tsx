import type { Metadata } from "next";
import { ReportPanel } from "@/components/report-panel";

export const metadata: Metadata = { title: "Report" };

export default function ResearchReportPage() {
  return <ReportPanel />;
}
