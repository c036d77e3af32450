import type { Metadata } from "next";
import { FollowUpPanel } from "@/components/follow-up-panel";
import { ReportPanel } from "@/components/report-panel";

export const metadata: Metadata = { title: "Report" };

export default function ResearchReportPage() {
  return (
    <>
      <ReportPanel />
      <FollowUpPanel />
    </>
  );
}
