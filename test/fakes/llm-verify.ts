// The fake citation verifier and uncited-claim finder, and what the fake report writer plants for
// them. The verifier judges like a careful model would, by looking: a sentence is supported when a
// sentence of the source occurs in it with nothing of substance added, partly supported when
// something is added, unsupported when no source sentence occurs in it. It corrects an unsupported
// sentence to the source sentence that shares most of its words (a misstated figure, say), and
// gives no correction when none shares most of them (the sentence is then removed).
import { sentencesOf, tagOf } from "./llm-parse";

/** Scenario switches for report verification (all off by default). */
export interface VerifyScenario {
  /** The report writer adds PLANTED_UNSUPPORTED, citing a real source that does not say it. */
  plantUnsupported: boolean;
  /** The report writer adds a sentence that overstates its source (the source sentence plus PLANTED_OVERSTATEMENT). */
  plantPartial: boolean;
  /** The report writer adds PLANTED_UNCITED, a fact with no citation. */
  plantUncited: boolean;
  /** The verifier quotes text that is not in the source (its sentence within invented words) for every supported sentence. */
  forgeQuotes: boolean;
  /** The verifier names every sentence by an id it was not given ("S1" for C1): none of its verdicts can be used. */
  unknownIds?: boolean;
  /**
   * The verifier's correction of an unsupported sentence: "echo" gives the sentence back unchanged;
   * "two-sentences" gives its correction followed by PLANTED_UNSUPPORTED (a second sentence the source does not say).
   */
  corrections?: "echo" | "two-sentences";
}

export const PLANTED_UNSUPPORTED = "Output fell by 95% in a single year, the steepest fall on record";
export const PLANTED_OVERSTATEMENT = ", and it is expected to double again by 2031";
export const PLANTED_UNCITED = "Installations worldwide reached 912 GW in 2024.";

const norm = (text: string) => text.replace(/[“”]/g, '"').replace(/[‘’]/g, "'").replace(/\s+/g, " ").trim();
const bare = (text: string) => norm(text).replace(/[.!?]+$/, "");

/** The sentences given, by the handle each is offered under (C1, C2 …: the reply names them so). */
function sentencesIn(task: string): { id: string; text: string }[] {
  return [...task.matchAll(/<sentence id="([^"]+)">\s*([\s\S]*?)\s*<\s?\/sentence>/g)].map((m) => ({ id: m[1], text: m[2] }));
}

/** A source that is an analysis query's result (its rows "Row 1: region = north; total = 412."): the row holding the claim's figures. */
function queryRowOf(source: string, claim: string): string | undefined {
  const rows = source.split("\n").filter((l) => /^Row \d+: /.test(l));
  const figures = claim.match(/\d[\d.]*/g) ?? [];
  if (rows.length === 0 || figures.length === 0) return undefined;
  return rows.find((r) => figures.every((f) => new RegExp(`(?<![\\d.])${f.replace(".", "\\.")}(?![\\d])`).test(r)));
}

export function verifierReply(task: string, scenario: VerifyScenario) {
  const source = tagOf(task, "source")?.content ?? "";
  // A query's result: a sentence is supported by the row holding its figures, quoted whole.
  if (/^Row \d+: /m.test(source)) {
    return {
      verdicts: sentencesIn(task).map(({ id, text }) => {
        const row = queryRowOf(source, bare(text));
        return row
          ? { id, verdict: "supported", quote: row, explanation: "The result row states this.", correction: "" }
          : { id, verdict: "unsupported", quote: "", explanation: "No result row states this.", correction: "" };
      }),
    };
  }
  // Each source sentence as compared (bare) and as quoted: verbatim, so that its own ending stays (a
  // sentence in typographic quotes ends with ”, not with the full stop a bare form would get back).
  const candidates = sentencesOf(source)
    .map((sentence) => ({ bare: bare(sentence), verbatim: norm(sentence) }))
    .sort((a, b) => b.bare.length - a.bare.length);
  return {
    verdicts: sentencesIn(task).map(({ id, text }) => {
      const claim = bare(text);
      const found = candidates.find((s) => claim.includes(s.bare));
      if (!found) return { id, verdict: "unsupported", quote: "", explanation: "The source does not state this.", correction: corrected(text, correctionOf(claim, candidates), scenario) };
      // What the sentence says beyond the quoted source sentence, without framing ("In short:").
      const extra = claim.replace(found.bare, "").replace(/^in short:?/i, "").replace(/[^\p{L}\p{N}\s]/gu, " ").trim();
      const verdict = extra.split(/\s+/).filter(Boolean).length <= 1 ? "supported" : "partial";
      // A forged quote: the source sentence inside words the source does not have (too many for a near-verbatim copy).
      const quote = scenario.forgeQuotes ? `Several independent studies all confirm that ${found.bare}, according to several independent studies` : found.verbatim;
      return { id, verdict, quote, explanation: verdict === "supported" ? "The source states this." : "The source states only part of this.", correction: "" };
    }).map((v) => (scenario.unknownIds ? { ...v, id: v.id.replace(/^C/, "S") } : v)),
  };
}

/** Uncited sentences with a figure state facts; the report's (or the Deep Research write-up's) framing sentence does not. */
export function uncitedReply(task: string) {
  return { factual: sentencesIn(task).filter((s) => /\d/.test(s.text) && !/^(This report|Iteration \d+ on)\b/.test(s.text)).map((s) => s.id) };
}

function corrected(sentence: string, correction: string, scenario: VerifyScenario): string {
  if (scenario.corrections === "echo") return sentence;
  if (scenario.corrections === "two-sentences" && correction) return `${correction} ${PLANTED_UNSUPPORTED}.`;
  return correction;
}

const wordsOf = (text: string) => new Set(text.toLowerCase().match(/\p{L}{4,}/gu) ?? []);

/** The source sentence that shares at least 60% of the claim's words (the most of them), verbatim; "" when none does. */
function correctionOf(claim: string, candidates: { verbatim: string }[]): string {
  const words = wordsOf(claim);
  if (words.size === 0) return "";
  let best = { share: 0, sentence: "" };
  for (const c of candidates) {
    const shared = [...wordsOf(c.verbatim)].filter((w) => words.has(w)).length / words.size;
    if (shared > best.share) best = { share: shared, sentence: c.verbatim };
  }
  return best.share >= 0.6 ? best.sentence : "";
}
