// Verdicts, checked in code: a "supported" or "partly supported" verdict stands only with a quote
// that is located in the stored text of a source the sentence cites (aligned, not string-matched:
// align.ts) and that carries the sentence's content, its figures and key terms (content.ts). The
// model's word is not taken. A sentence no usable verdict was given for is "unverified": kept as
// written and marked, never counted as unsupported. Also: one verdict per sentence from its
// sources' verdicts, and the report's support rate.
import { locateQuote } from "./align";
import { carriedBy } from "./content";
import { locateParaphrase } from "./paraphrase";

export type Verdict = "supported" | "partial" | "unsupported" | "uncited" | "unverified";
/** What one source's check of a sentence can end in. */
export type SourceVerdict = Exclude<Verdict, "uncited">;

export interface ClaimVerdict {
  position: number;
  sentence: string;
  urls: string[];
  verdict: Verdict;
  quote: string | null;
  quoteUrl: string | null;
  note: string | null;
}

export interface ModelVerdict {
  verdict: "supported" | "partial" | "unsupported";
  quote: string;
  explanation: string;
  /** For unsupported: the sentence as the source supports it ("" when it supports nothing like it). */
  correction: string;
}

export interface CheckedVerdict {
  verdict: SourceVerdict;
  quote: string | null;
  quoteUrl: string | null;
  note: string | null;
}

/** A sentence no source gave a usable verdict for: kept, marked, with the reason. */
export function unverified(note: string): CheckedVerdict {
  return { verdict: "unverified", quote: null, quoteUrl: null, note };
}

/**
 * One source's verdict on a sentence, as accepted. "unsupported" is the model's judgement and stands.
 * A support verdict stands with its quote located in the source's stored text (the source's own
 * span is kept as the quote) and carrying the sentence's content; "supported" with a quote that
 * carries only part of it is partial. A support verdict whose evidence fails is no judgement: the
 * sentence is unverified (kept and marked), with the reason.
 */
export function checkVerdict(model: Pick<ModelVerdict, "verdict" | "quote" | "explanation">, sourceText: string, url: string, sentence: string): CheckedVerdict {
  const explanation = model.explanation.trim() || null;
  if (model.verdict === "unsupported") return { verdict: "unsupported", quote: null, quoteUrl: null, note: explanation };
  // Copied near-verbatim (./align.ts), or else reworded or reordered: the page's sentence it paraphrases (./paraphrase.ts).
  const located = model.quote.trim() ? (locateQuote(model.quote, sourceText) ?? locateParaphrase(model.quote, sourceText)) : undefined;
  if (!located) return unverified(`Not verified: the verifier's quote does not occur in the stored text of ${url}.`);
  const carried = carriedBy(sentence, located.text);
  if (carried === "none") return unverified(`Not verified: the verifier's quote from ${url} does not carry the sentence's figures or key terms.`);
  if (model.verdict === "supported" && carried === "partial") {
    return { verdict: "partial", quote: located.text, quoteUrl: url, note: `The quote shows only part of the sentence${explanation ? ` (${explanation})` : "."}` };
  }
  return { verdict: model.verdict, quote: located.text, quoteUrl: url, note: explanation };
}

// A source that could not judge says more than one that judged "unsupported": the sentence may
// still be supported there, so it is unverified, not unsupported (only a judged "unsupported" is repaired).
const RANK: Record<SourceVerdict, number> = { supported: 3, partial: 2, unverified: 1, unsupported: 0 };

/** A sentence citing several sources is as supported as its best-supporting source says. */
export function bestOf<T extends { verdict: SourceVerdict }>(verdicts: T[]): T | undefined {
  return verdicts.reduce<T | undefined>((best, v) => (!best || RANK[v.verdict] > RANK[best.verdict] ? v : best), undefined);
}

export interface SupportCounts {
  /** Cited sentences plus uncited sentences that state facts (and sentences that could not be judged). */
  claims: number;
  supported: number;
  partial: number;
  unsupported: number;
  uncited: number;
  /** Claims no usable verdict was given for: kept as written, counted apart. */
  unverified: number;
}

export function countVerdicts(verdicts: Pick<ClaimVerdict, "verdict">[]): SupportCounts {
  const count = (v: Verdict) => verdicts.filter((x) => x.verdict === v).length;
  return { claims: verdicts.length, supported: count("supported"), partial: count("partial"), unsupported: count("unsupported"), uncited: count("uncited"), unverified: count("unverified") };
}

/**
 * The share of the report's judged claims that their sources fully support, 0..1 (null: none
 * judged). A partly supported claim and an uncited factual sentence are not supported; an
 * unverified claim was not judged, so it is left out of the rate (and counted apart).
 */
export function supportRate(counts: SupportCounts): number | null {
  const judged = counts.claims - counts.unverified;
  return judged === 0 ? null : counts.supported / judged;
}

/** More than half of the claims could not be judged: the verification says little, and a warning says so. */
export function mostlyUnverified(counts: SupportCounts): boolean {
  return counts.unverified * 2 > counts.claims;
}
