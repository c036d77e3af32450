"use client";
import { ErrorView } from "@/components/error-view";

export default function HistoryError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorView error={error} reset={reset} title="History could not be shown" />;
}
