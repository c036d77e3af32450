"use client";
// The caller's answers, newest first (GET /api/v1/answers), each opening its run on the Quick answer page.
import Link from "next/link";
import { useEffect, useState } from "react";
import type { ResearchStatus } from "@/lib/types";
import { StatusBadge } from "./status-badge";

interface Listed {
  requestId: string;
  question: string;
  status: string;
  createdAt: string;
}

export function AnswerHistory({ limit = 20, refreshKey }: { limit?: number; refreshKey?: unknown }) {
  const [answers, setAnswers] = useState<Listed[]>([]);
  useEffect(() => {
    let live = true;
    void fetch(`/api/v1/answers?limit=${limit}`, { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : { answers: [] }))
      .then((b: { answers: Listed[] }) => live && setAnswers(b.answers))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [limit, refreshKey]);
  if (answers.length === 0) return null;
  return (
    <section className="space-y-2">
      <h2 className="text-sm font-semibold text-muted">Quick answers</h2>
      <ul className="space-y-1 text-sm" data-testid="answer-history">
        {answers.map((a) => (
          <li key={a.requestId} className="flex items-center gap-2" data-testid="answer-history-row">
            <Link href={`/answer?id=${encodeURIComponent(a.requestId)}`} className="min-w-0 truncate hover:underline">
              {a.question}
            </Link>
            {/* An answer's statuses are a research's, plus "queued" (shown as pending). */}
            <StatusBadge status={a.status as ResearchStatus} />
          </li>
        ))}
      </ul>
    </section>
  );
}
