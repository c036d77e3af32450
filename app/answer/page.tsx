import type { Metadata } from "next";
import { Suspense } from "react";
import { QuickAnswer } from "@/components/quick-answer";

export const metadata: Metadata = { title: "Quick answer" };

export default function AnswerPage() {
  // useSearchParams needs a Suspense boundary in a statically rendered page.
  return (
    <Suspense fallback={null}>
      <QuickAnswer />
    </Suspense>
  );
}
