import type { Metadata } from "next";
import { FollowUpPanel } from "@/components/follow-up-panel";
import { ReportLink, ReportPanel, type PrerenderedReport } from "@/components/report-panel";
import { StaticMarkdown } from "@/components/static-markdown";
import { getSessionUserId } from "@/lib/auth/caller";
import { fingerprint } from "@/lib/fingerprint";
import { splitNumberedSources } from "@/lib/report-citations";
import { getFinishedReport } from "@/lib/research/service";

export const metadata: Metadata = { title: "Report" };

/**
 * A completed research's report never changes: it is rendered here, on the server, so the browser
 * downloads its HTML and not the Markdown renderer. Its citations stay client components (their
 * hover cards). A report still being written is rendered in the browser as it streams.
 */
async function prerender(id: string): Promise<PrerenderedReport | null> {
  const userId = await getSessionUserId();
  const report = userId ? await getFinishedReport({ id, userId }) : null;
  if (!report) return null;
  const { body, sources } = splitNumberedSources(report);
  const numberOf = new Map(sources.map((s) => [s.url, s.n]));
  return {
    fingerprint: fingerprint(report),
    body: (
      <StaticMarkdown
        renderLink={({ href, children }) => (
          <ReportLink href={href} number={href ? numberOf.get(href) : undefined}>
            {children}
          </ReportLink>
        )}
      >
        {body}
      </StaticMarkdown>
    ),
  };
}

export default async function ResearchReportPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <>
      <ReportPanel prerendered={await prerender(id)} />
      <FollowUpPanel />
    </>
  );
}
