"use client";
import { ErrorView } from "@/components/error-view";

export default function ResearchError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorView error={error} reset={reset} title="This research view crashed" />;
}
