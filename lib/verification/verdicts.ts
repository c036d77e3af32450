// Verdicts, checked in code: a "supported" or "partly supported" verdict stands only with a quote
// that occurs verbatim (up to whitespace and typographic quotes) in the stored text of a source the
// sentence cites. The model's word is not taken. Also: one verdict per sentence from its sources'
// verdicts, and the report's support rate.

export type Verdict = "supported" | "partial" | "unsupported" | "uncited";

export interface ClaimVerdict {
  position: number;
  sentence: string;
  urls: string[];
  verdict: Verdict;
  quote: string | null;
  quoteUrl: string | null;
  note: string | null;
}

/** Shortest quote accepted: a few words occur anywhere and prove nothing. */
export const MIN_QUOTE_CHARS = 12;

/** Text as compared: Unicode-normalised, typographic quotes and dashes made plain, whitespace collapsed. */
export function normaliseText(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[‘’‚‛]/g, "'")
    .replace(/[“”„‟]/g, '"')
    .replace(/[‐‑‒–—]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

export interface ModelVerdict {
  verdict: "supported" | "partial" | "unsupported";
  quote: string;
  explanation: string;
  /** For unsupported: the sentence as the source supports it ("" when it supports nothing like it). */
  correction: string;
}

/**
 * One source's verdict on a sentence, as accepted: a support verdict whose quote is too short or
 * not in the source's stored text is rejected (it counts as unsupported, with the reason).
 */
export function checkVerdict(model: Pick<ModelVerdict, "verdict" | "quote" | "explanation">, sourceText: string, url: string): { verdict: Exclude<Verdict, "uncited">; quote: string | null; quoteUrl: string | null; note: string | null } {
  if (model.verdict === "unsupported") return { verdict: "unsupported", quote: null, quoteUrl: null, note: model.explanation.trim() || null };
  const quote = normaliseText(model.quote).replace(/^["']|["']$/g, "").trim();
  if (quote.length < MIN_QUOTE_CHARS) {
    return { verdict: "unsupported", quote: null, quoteUrl: null, note: `Rejected: the verifier's quote from ${url} is too short to show support.` };
  }
  if (!normaliseText(sourceText).includes(quote)) {
    return { verdict: "unsupported", quote: null, quoteUrl: null, note: `Rejected: the verifier's quote does not occur in the stored text of ${url}.` };
  }
  return { verdict: model.verdict, quote, quoteUrl: url, note: model.explanation.trim() || null };
}

const RANK: Record<Exclude<Verdict, "uncited">, number> = { supported: 2, partial: 1, unsupported: 0 };

/** A sentence citing several sources is as supported as its best-supporting source says. */
export function bestOf<T extends { verdict: Exclude<Verdict, "uncited"> }>(verdicts: T[]): T | undefined {
  return verdicts.reduce<T | undefined>((best, v) => (!best || RANK[v.verdict] > RANK[best.verdict] ? v : best), undefined);
}

export interface SupportCounts {
  /** Cited sentences plus uncited sentences that state facts. */
  claims: number;
  supported: number;
  partial: number;
  unsupported: number;
  uncited: number;
}

export function countVerdicts(verdicts: Pick<ClaimVerdict, "verdict">[]): SupportCounts {
  const count = (v: Verdict) => verdicts.filter((x) => x.verdict === v).length;
  return { claims: verdicts.length, supported: count("supported"), partial: count("partial"), unsupported: count("unsupported"), uncited: count("uncited") };
}

/**
 * The share of the report's claims that their sources fully support, 0..1 (null: no claims). A
 * partly supported claim and an uncited factual sentence are not supported; they are counted apart.
 */
export function supportRate(counts: SupportCounts): number | null {
  return counts.claims === 0 ? null : counts.supported / counts.claims;
}
