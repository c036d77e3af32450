// The public shape of a report's verification (API, CLI, viewer): the final verdicts of the stored
// report with its support rate, and what the first pass found in the report as written.
import { countVerdicts, supportRate, type Verdict } from "./verdicts";

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
  counts: { claims: number; supported: number; partial: number; unsupported: number; uncited: number };
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
  const repaired = row.verdicts.some((v) => v.pass === 2);
  const final = repaired ? passView(row.verdicts.filter((v) => v.pass === 2)) : first;
  return {
    status: row.status,
    ...final,
    as_written: first,
    repair: { removed: row.removed, rewritten: row.rewritten },
    completed_at: row.completedAt?.toISOString() ?? null,
  };
}
