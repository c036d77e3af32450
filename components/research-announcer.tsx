"use client";
// The research page's polite live region: while a research runs, its progress at most once every
// ~10 s (a screen reader cannot follow every event), and at once when it ends or starts again.
import { useEffect, useRef, useState } from "react";
import type { ResearchStatus } from "@/lib/types";
import type { ResearchStats } from "@/lib/client/research-stats";

/** The shortest time between two progress announcements. */
export const ANNOUNCE_INTERVAL_MS = 10_000;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

function progressSentence(s: ResearchStats): string {
  const pages = plural(s.pagesAnalyzed, "page analysed", "pages analysed");
  if (s.phase === "starting") return "Planning the first queries.";
  if (s.phase === "writing") return `All ${plural(s.queriesDone, "query", "queries")} done, ${pages}; writing the report.`;
  return `${s.queriesDone.toLocaleString("en")} of ${plural(s.queriesTotal, "query", "queries")} done, ${pages}.`;
}

function endSentence(status: ResearchStatus, s: ResearchStats, error: string | null): string | null {
  const summary = `${plural(s.queriesDone, "query", "queries")} done, ${plural(s.pagesAnalyzed, "page analysed", "pages analysed")}`;
  if (status === "completed") return `The research is completed: ${summary}. The report is ready.`;
  if (status === "failed") return `The research failed${error ? `: ${error}` : "."}`;
  if (status === "cancelled") return `The research was cancelled after ${summary}.`;
  if (status === "running") return "The research is running.";
  return null;
}

export function ResearchAnnouncer({ status, stats, error }: { status: ResearchStatus; stats: ResearchStats; error: string | null }) {
  const [text, setText] = useState("");
  const progress = status === "running" ? progressSentence(stats) : null;
  // What the page showed on load is not news: only changes seen here are announced.
  const said = useRef(progress);
  const saidAt = useRef(0);
  const seenStatus = useRef(status);
  const latest = useRef({ stats, error });
  latest.current = { stats, error };

  // Batched: the first change is said at once, later ones at the end of each interval (the newest).
  useEffect(() => {
    if (!progress || progress === said.current) return;
    const wait = Math.max(0, saidAt.current + ANNOUNCE_INTERVAL_MS - Date.now());
    const t = setTimeout(() => {
      said.current = progress;
      saidAt.current = Date.now();
      setText(progress);
    }, wait);
    return () => clearTimeout(t);
  }, [progress]);

  useEffect(() => {
    if (status === seenStatus.current) return;
    seenStatus.current = status;
    const sentence = endSentence(status, latest.current.stats, latest.current.error);
    if (sentence) {
      saidAt.current = Date.now();
      setText(sentence);
    }
  }, [status]);

  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="research-announcer">
      {text}
    </div>
  );
}
