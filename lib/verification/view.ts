// The public shape of a report's verification (API, CLI, viewer): the final verdicts of the stored
// report with its support rate, and what the first pass found in the report as written. The final
// verdicts describe the stored report: after a repair they are pass 2's, even when the repair left
// no claim at all (no pass-2 rows), never the report as written.
import { countVerdicts, supportRate, type SupportCounts, type Verdict } from "./verdicts";

interface VerdictRow {
  pass: number;
  position: number;
  sentence: string;
  urls: string;
  verdict: string;
  quote: string | null;
  quoteUrl: string | null;
  note: string | null;
}

interface VerificationRow {
  status: string;
  removed: number;
  rewritten: number;
  completedAt: Date | null;
  verdicts: VerdictRow[];
}

export interface ClaimView {
  sentence: string;
  verdict: Verdict;
  cited_urls: string[];
  quote: string | null;
  quote_url: string | null;
  note: string | null;
}

export interface PassView {
  support_rate: number | null;
  /** unverified: claims no usable verdict was given for (kept as written, marked), not in the support rate. */
  counts: SupportCounts;
  claims: ClaimView[];
}

export interface VerificationView extends PassView {
  /** checking | rechecking | done | failed (repairing: left by an earlier version, judged again) */
  status: string;
  /** The report as written, before the repair. */
  as_written: PassView;
  repair: { removed: number; rewritten: number };
  completed_at: string | null;
}

function parseUrls(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

function passView(rows: VerdictRow[]): PassView {
  const claims = rows.map((r) => ({ sentence: r.sentence, verdict: r.verdict as Verdict, cited_urls: parseUrls(r.urls), quote: r.quote, quote_url: r.quoteUrl, note: r.note }));
  const counts = countVerdicts(claims);
  return { support_rate: supportRate(counts), counts, claims };
}

export function toVerificationView(row: VerificationRow): VerificationView {
  const first = passView(row.verdicts.filter((v) => v.pass === 1));
  // A repair (pass 1 removed or rewrote something) means pass 2 judged the stored report.
  const repaired = row.verdicts.some((v) => v.pass === 2) || (row.status === "done" && row.removed + row.rewritten > 0);
  const final = repaired ? passView(row.verdicts.filter((v) => v.pass === 2)) : first;
  return {
    status: row.status,
    ...final,
    as_written: first,
    repair: { removed: row.removed, rewritten: row.rewritten },
    completed_at: row.completedAt?.toISOString() ?? null,
  };
}

/**
 * The exports' mark of claims the verifier could not judge (a settings line, a paper's limitation):
 * null when there are none, or the verification did not finish.
 */
export function unverifiedNote(v: Pick<VerificationView, "status" | "counts"> | null): string | null {
  if (v?.status !== "done" || v.counts.unverified === 0) return null;
  return `${v.counts.unverified} of ${v.counts.claims} claims could not be verified (the verifier gave no usable verdict); they are kept as written, marked in the viewer, and left out of the support rate.`;
}
