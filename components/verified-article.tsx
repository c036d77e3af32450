"use client";
// A rendered report with its citation check (read-only, as on a shared page): the support rate and
// counts above it, the flagged claims marked in it, the source's quote on hover. The report itself
// may be server-rendered: it comes in as children.
import { useRef, type ReactNode } from "react";
import { VerificationSummary } from "./report-verification";
import type { VerificationView } from "@/lib/verification/view";

export function VerifiedArticle({ verification, testid, children }: { verification: VerificationView | null; testid: string; children: ReactNode }) {
  const article = useRef<HTMLElement>(null);
  return (
    <>
      {verification ? <VerificationSummary data={verification} article={article} /> : null}
      <article ref={article} data-testid={testid}>
        {children}
      </article>
    </>
  );
}
