// Verifies a written report and repairs it: pass 1 judges every cited sentence against the stored
// text of its sources (and finds uncited factual sentences), and its verifier corrects in the same
// call each sentence its source does not support; the repair rewrites those sentences with their
// corrections or removes them (no call of its own); pass 2 judges what the repair changed, every
// sentence of each rewrite. Pass 1 is saved with the repaired report, and pass 2 with the final one,
// so a resumed run repeats only the pass it was in. Used by every engine that writes a report.
//
// Degrade, never destroy: only a judged "unsupported" is rewritten or removed. A sentence no usable
// verdict was given for — the verifier skipped it or named it no way that resolves, its call
// failed, its source has no stored text, its quote could not be located or carries not its content
// — is "unverified": kept as written, marked, and counted apart. A verifier that fails outright
// ends the same way as one whose verdicts name nothing: the report keeps every citation, and when
// most claims are unverified a warning says so.
import { findUncitedClaims } from "../agents/find-uncited-claims";
import { verifyCitations } from "../agents/verify-citations";
import { heldByWindow } from "../ai/context-limit";
import { isLostCall } from "../ai/errors";
import { estimateTokens } from "../ai/prompts";
import type { UsageSink } from "../ai/usage";
import type { WaitOptions } from "../concurrency";
import * as store from "../db/verifications";
import { errorMessage } from "../errors";
import { tokenize } from "./align";
import { claimsOf, reportBody, type Claim } from "./claims";
import { applyRepairs, type RepairEdit } from "./repair";
import { citedElsewhere } from "./paraphrase";
import { sourceWindow } from "./source-window";
import { bestOf, checkVerdict, countVerdicts, mostlyUnverified, unverified, type CheckedVerdict, type ClaimVerdict, type ModelVerdict } from "./verdicts";

export interface SourceText {
  title: string | null;
  text: string;
}

export interface VerifyOptions {
  /** The question the report answers: context for every agent of the verification. */
  question: string;
  subject: store.VerificationSubject;
  /** The report as written, with numbered citations. Ignored when a verification is being resumed. */
  report: string;
  /** The stored text of every source the report may cite, by URL. */
  sources: ReadonlyMap<string, SourceText>;
  /** Tokens of one source's text sent with its sentences. */
  sourceBudgetTokens: number;
  /** Where a warning about the verification goes (most claims could not be judged): the run's warnings. */
  onWarning?: (message: string) => void | Promise<void>;
  onUsage?: UsageSink;
  signal?: AbortSignal;
  schedule?: WaitOptions;
  /**
   * The report's parts verified while it was written (lib/verification/streamed.ts): their verdicts
   * are taken instead of asking again; what they did not judge is judged here.
   */
  early?: { settled(): Promise<Prejudged> };
}

export type Calls = Pick<VerifyOptions, "question" | "onUsage" | "signal" | "schedule" | "sourceBudgetTokens" | "sources">;

/** One cited sentence's verdict (and an unsupported one's correction), judged before the whole report was there. */
export interface PrejudgedCited {
  result: CheckedVerdict;
  correction: string;
  /** An unsupported sentence's other source that says it (citedElsewhere), null when looked for and none; undefined when not looked for. */
  elsewhere?: string | null;
}

/** Whether an uncited sentence states a fact, or why the finder could not say. */
export type PrejudgedUncited = { factual: boolean } | { failure: string };

/**
 * Verdicts given to sentences before the report was whole: cited ones by their text and URLs
 * (keyOf), uncited ones by their text. A sentence's verdict depends on it and its sources alone, so
 * a verdict given to it in its section is the verdict the whole report's check would give it.
 */
export interface Prejudged {
  cited: ReadonlyMap<string, PrejudgedCited>;
  uncited: ReadonlyMap<string, PrejudgedUncited>;
}

const NOTHING_PREJUDGED: Prejudged = { cited: new Map(), uncited: new Map() };

/** Sentences a verifier call judges at most: a long list dilutes its attention. */
const BATCH = 12;

/** Runs (or resumes) the verification; resolves with the report to store: repaired, or as written. */
export async function verifyReport(options: VerifyOptions): Promise<string> {
  // The row is opened while the last parts' checks finish (neither waits for the other).
  const [opened, prejudged] = await Promise.all([store.openVerification(options.subject, options.report), options.early?.settled() ?? NOTHING_PREJUDGED]);
  let v = opened;
  const calls: Calls & { prejudged: Prejudged } = { ...options, prejudged };
  const original = reportBody(v.original);
  const claims = claimsOf(original.body);

  // "repairing": a verification saved by an earlier version between its first pass and the repair
  // (whose corrections were not kept) is judged again.
  if (v.status === "checking" || v.status === "repairing") {
    const { verdicts, corrections, recitations } = await judge(claims, calls);
    const edits = verdicts
      .filter((x) => x.verdict === "unsupported" && x.urls.length > 0)
      .flatMap((x): RepairEdit[] => {
        // Said by another source read: the model misnamed its source. Cited to that one, and judged again.
        const known = recitations.get(x.position);
        const url = claims[x.position]?.row ? undefined : known !== undefined ? (known ?? undefined) : citedElsewhere(x.sentence, x.urls, calls.sources);
        if (url) return [{ position: x.position, action: "recite", url }];
        const sentence = usableCorrection(corrections.get(x.position), x.sentence);
        // A table row with a correction stays as written, judged unsupported and marked: it cannot be rewritten.
        if (sentence && claims[x.position]?.row) return [];
        return [sentence ? { position: x.position, action: "rewrite", sentence } : { position: x.position, action: "remove" }];
      });
    const repair =
      edits.length === 0
        ? ({ status: "done" } as const)
        : {
            status: "rechecking" as const,
            repaired: applyRepairs(original.body, claims, edits, original.sourceTitles),
            removed: edits.filter((e) => e.action === "remove").length,
            // A sentence cited to another source counts as rewritten (its citation was).
            rewritten: edits.filter((e) => e.action !== "remove").length,
          };
    if (repair.status === "done") {
      v = await store.savePass(v.id, 1, verdicts, countVerdicts(verdicts), repair);
      await warnIfUnjudged(verdicts, options);
      return v.repaired ?? v.original;
    }
    // Pass 2 takes pass 1 as judged here, not read back from the database: it does not wait for
    // pass 1's write. When every rewrite was judged while the report was written (nothing left to
    // ask), both passes are saved in one transaction; else pass 1 is saved while pass 2 asks (and a
    // resumed run repeats only pass 2).
    const pass1 = verdicts;
    const whole = { status: "done" as const };
    if (rewritesJudged(repair.repaired, pass1, prejudged)) {
      const second = await recheck(repair.repaired, pass1, calls);
      v = await store.savePass(v.id, 2, second.verdicts, countVerdicts(second.verdicts), { ...whole, repaired: second.report, removed: repair.removed + second.removed, rewritten: Math.max(0, repair.rewritten - second.removed) }, { verdicts: pass1 });
      await warnIfUnjudged(second.verdicts, options);
      return v.repaired ?? v.original;
    }
    const saved = store.savePass(v.id, 1, pass1, countVerdicts(pass1), repair);
    // Awaited below; a failed write is not left unhandled while pass 2 asks.
    saved.catch(() => undefined);
    const second = await recheck(repair.repaired, pass1, calls);
    v = await saved;
    v = await store.savePass(v.id, 2, second.verdicts, countVerdicts(second.verdicts), { ...whole, repaired: second.report, removed: v.removed + second.removed, rewritten: Math.max(0, v.rewritten - second.removed) });
    await warnIfUnjudged(second.verdicts, options);
    return v.repaired ?? v.original;
  }
  // Resumed after pass 1 and the repair were saved: pass 2 from the saved pass 1.
  if (v.status === "rechecking" && v.repaired !== null) {
    const second = await recheck(v.repaired, await store.verdictsOf(v.id, 1), calls);
    v = await store.savePass(v.id, 2, second.verdicts, countVerdicts(second.verdicts), { status: "done", repaired: second.report, removed: v.removed + second.removed, rewritten: Math.max(0, v.rewritten - second.removed) });
    await warnIfUnjudged(second.verdicts, options);
  }
  return v.repaired ?? v.original;
}

/** Whether every sentence the repair wrote (cited, not in pass 1) has a verdict already: pass 2 then asks nothing. */
function rewritesJudged(repaired: string, pass1: Pick<store.VerdictRow, "sentence" | "urls">[], prejudged: Prejudged): boolean {
  const before = new Set(pass1.map((v) => keyOf(v.sentence, v.urls)));
  return claimsOf(reportBody(repaired).body).every((c) => c.urls.length === 0 || before.has(keyOf(c.text, c.urls)) || prejudged.cited.has(keyOf(c.text, c.urls)));
}

/** The correction a repair rewrites the sentence with, or undefined: a "correction" that says what the sentence said is no fix (the sentence goes). */
export function usableCorrection(correction: string | undefined, sentence: string): string | undefined {
  return correction && !sameWords(correction, sentence) ? correction : undefined;
}

/** Two sentences that say the same words (case, punctuation and spacing aside). */
function sameWords(a: string, b: string): boolean {
  const words = (text: string) => tokenize(text).map((t) => t.norm).join(" ");
  return words(a) === words(b);
}

async function warnIfUnjudged(verdicts: ClaimVerdict[], options: VerifyOptions): Promise<void> {
  const counts = countVerdicts(verdicts);
  if (!mostlyUnverified(counts)) return;
  const reason = verdicts.find((x) => x.verdict === "unverified")?.note;
  await options.onWarning?.(
    `The citations could not be verified for ${counts.unverified} of ${counts.claims} claims${reason ? ` (${reason.replace(/^Not verified: /, "").replace(/\.$/, "")})` : ""}; they are kept as written and marked as not verified.`,
  );
}

export const keyOf = (sentence: string, urls: string[]) => `${sentence}\u0000${urls.join(" ")}`;

/**
 * Pass 2 on the repaired report: sentences the repair left alone keep their pass-1 verdicts; the
 * rewritten ones (every sentence of a rewrite) are judged, and a rewritten sentence judged
 * unsupported is removed. Every cited sentence of the final report has a verdict: the view's counts
 * are the stored report's.
 */
async function recheck(repaired: string, pass1: store.VerdictRow[], calls: Calls & { prejudged: Prejudged }) {
  const before = new Map(pass1.map((v) => [keyOf(v.sentence, v.urls), v]));
  let { body, sourceTitles } = reportBody(repaired);
  let claims = claimsOf(body);
  const fresh = claims.filter((c) => c.urls.length > 0 && !before.has(keyOf(c.text, c.urls)));
  const judged = new Map((await judgeCitedOrTaken(fresh, calls)).verdicts.map((v) => [v.position, v]));
  const failed = fresh.filter((c) => judged.get(c.position)?.verdict === "unsupported");
  let report = repaired;
  if (failed.length > 0) {
    report = applyRepairs(body, claims, failed.map((c) => ({ position: c.position, action: "remove" })), sourceTitles);
    ({ body, sourceTitles } = reportBody(report));
    const kept = new Map(fresh.filter((c) => !failed.includes(c)).map((c) => [keyOf(c.text, c.urls), judged.get(c.position) as ClaimVerdict]));
    claims = claimsOf(body);
    judged.clear();
    for (const c of claims) {
      const v = kept.get(keyOf(c.text, c.urls));
      if (v) judged.set(c.position, v);
    }
  }
  const verdicts: ClaimVerdict[] = [];
  for (const c of claims) {
    const prior = before.get(keyOf(c.text, c.urls)) ?? judged.get(c.position);
    if (prior) verdicts.push({ ...prior, verdict: prior.verdict as ClaimVerdict["verdict"], position: c.position });
    // A cited sentence the removals reshaped (none expected): in the report, so in the verification.
    else if (c.urls.length > 0) verdicts.push({ position: c.position, sentence: c.text, urls: c.urls, ...unverified("Not verified: the sentence changed in the repair and was not judged again.") });
  }
  return { report, verdicts, removed: failed.length };
}

/** An uncited sentence as checked against its paragraph's citations (Claim.covering). */
export const asCovered = (c: Claim): Claim => ({ ...c, urls: c.covering ?? [] });

/**
 * Pass 1: every cited sentence judged, and the uncited sentences that state facts flagged. An uncited
 * sentence that its paragraph's citation supports (a citation at a paragraph's end covers the sentences
 * before it) is supported; one that it does not is an uncited sentence like any other, never repaired:
 * the model did not cite it.
 */
async function judge(claims: Claim[], calls: Calls & { prejudged: Prejudged }): Promise<Judged> {
  const uncited = claims.filter((c) => c.urls.length === 0);
  const covered = uncited.filter((c) => c.covering);
  const [judged, factual] = await Promise.all([judgeCitedOrTaken([...claims.filter((c) => c.urls.length > 0), ...covered.map(asCovered)], calls), findFactualOrTaken(uncited, calls)]);
  const isCovered = new Set(covered.map((c) => c.position));
  const coveredVerdicts = judged.verdicts
    .filter((v) => isCovered.has(v.position) && (v.verdict === "supported" || v.verdict === "partial"))
    .map((v): ClaimVerdict => ({ ...v, urls: [], note: v.note ?? "Supported by the citation that ends its paragraph." }));
  const supportedCovered = new Set(coveredVerdicts.map((v) => v.position));
  const notCovered = <T,>(map: Map<number, T>) => new Map([...map].filter(([position]) => !isCovered.has(position)));
  const cited = { verdicts: judged.verdicts.filter((v) => !isCovered.has(v.position)), corrections: notCovered(judged.corrections), recitations: notCovered(judged.recitations) };
  const flagged: ClaimVerdict[] = uncited.filter((c) => !supportedCovered.has(c.position)).flatMap((c): ClaimVerdict[] => {
    const found = factual.get(c.position);
    // The finder's call failed: whether the sentence states a fact is not known. It is kept and marked.
    if (found && "failure" in found) return [{ position: c.position, sentence: c.text, urls: [], ...unverified(`Not verified: the check for facts stated without a citation failed (${found.failure}).`) }];
    return found?.factual ? [{ position: c.position, sentence: c.text, urls: [], verdict: "uncited", quote: null, quoteUrl: null, note: "States a fact without citing a source." }] : [];
  });
  return { verdicts: [...cited.verdicts, ...coveredVerdicts, ...flagged].sort((a, b) => a.position - b.position), corrections: cited.corrections, recitations: cited.recitations };
}

/** Each uncited sentence's finding by position: prejudged ones taken, the others asked (one call). */
async function findFactualOrTaken(uncited: Claim[], calls: Calls & { prejudged: Prejudged }): Promise<Map<number, PrejudgedUncited>> {
  const out = new Map<number, PrejudgedUncited>();
  const ask: Claim[] = [];
  for (const c of uncited) {
    const taken = calls.prejudged.uncited.get(c.text);
    if (taken) out.set(c.position, taken);
    else ask.push(c);
  }
  if (ask.length > 0) for (const [position, found] of await findFactual(ask, calls)) out.set(position, found);
  return out;
}

/** Whether each of the uncited sentences states a fact (by position), or the reason the finder could not say for them. */
export async function findFactual(uncited: Claim[], calls: Calls): Promise<Map<number, PrejudgedUncited>> {
  const found = await findFactualIds(uncited, calls);
  return new Map(uncited.map((c) => [c.position, "failure" in found ? { failure: found.failure } : { factual: found.ids.has(c.position) }]));
}

/** The uncited sentences that state facts, or the reason the finder could not say. */
async function findFactualIds(uncited: Claim[], calls: Calls): Promise<{ ids: Set<number> } | { failure: string }> {
  try {
    return { ids: await findUncitedClaims({ question: calls.question, sentences: uncited.map((c) => ({ id: c.position, text: c.text })), onUsage: calls.onUsage, signal: calls.signal, schedule: calls.schedule }) };
  } catch (error) {
    if (calls.signal?.aborted || !isLostCall(error)) throw error;
    return { failure: errorMessage(error).slice(0, 200) };
  }
}

export interface Judged {
  verdicts: ClaimVerdict[];
  /** An unsupported sentence's correction, by position: the first of its sources (in citation order) to give one. */
  corrections: Map<number, string>;
  /** Where the streamed check already looked for another source that says an unsupported sentence, by position (PrejudgedCited.elsewhere). */
  recitations: Map<number, string | null>;
}

/** judgeCited, taking the verdicts given before (the report's sections as they were written) instead of asking again. */
async function judgeCitedOrTaken(claims: Claim[], calls: Calls & { prejudged: Prejudged }): Promise<Judged> {
  const ask = claims.filter((c) => !calls.prejudged.cited.has(keyOf(c.text, c.urls)));
  const asked = await judgeCited(ask, calls);
  const fresh = new Map(asked.verdicts.map((v) => [v.position, v]));
  const corrections = asked.corrections;
  const recitations = new Map<number, string | null>();
  const verdicts = claims.map((c): ClaimVerdict => {
    const own = fresh.get(c.position);
    if (own) return own;
    const taken = calls.prejudged.cited.get(keyOf(c.text, c.urls)) as PrejudgedCited;
    if (taken.correction) corrections.set(c.position, taken.correction);
    if (taken.elsewhere !== undefined) recitations.set(c.position, taken.elsewhere);
    return { position: c.position, sentence: c.text, urls: c.urls, ...taken.result };
  });
  return { verdicts, corrections, recitations };
}

/** Each cited sentence's verdict: one verifier call per source (in batches), the best source's verdict kept. */
export async function judgeCited(claims: Claim[], calls: Calls): Promise<Judged> {
  const byUrl = new Map<string, Claim[]>();
  for (const c of claims) for (const url of c.urls) byUrl.set(url, [...(byUrl.get(url) ?? []), c]);
  const perSource = await Promise.all(
    [...byUrl.entries()].map(async ([url, cs]) => {
      const source = calls.sources.get(url);
      if (!source?.text.trim()) return cs.map((c) => ({ position: c.position, url, correction: "", result: unverified(`Not verified: there is no stored text of ${url} to check against.`) }));
      const out: { position: number; url: string; correction: string; result: CheckedVerdict }[] = [];
      // A source shown in part because the model's context window is small (not the configured budget): a
      // verifier that found no support in that part has not judged the sentence against the source, and a
      // supported sentence would be rewritten or removed. Its "unsupported" is no judgement: kept and marked.
      const inPart = heldByWindow(calls.sourceBudgetTokens) && estimateTokens(source.text) > calls.sourceBudgetTokens;
      for (let i = 0; i < cs.length; i += BATCH) {
        const batch = cs.slice(i, i + BATCH);
        const { verdicts: models, failure, held } = await askVerifier(url, source, batch, calls);
        for (const c of batch) {
          const model = models.get(c.position);
          const result = !model
            ? unverified(failure ? `Not verified: the verifier's call against ${url} failed (${failure}).` : `Not verified: the verifier gave no usable verdict against ${url}.`)
            : model.verdict === "unsupported" && (inPart || held)
              ? unverified(`Not verified: the verifier saw only part of ${url} (the model's context window is too small for the whole source) and found no support there.`)
              : checkVerdict(model, source.text, url, c.text);
          out.push({ position: c.position, url, correction: result.verdict === "unsupported" ? correctionOf(model!.correction) : "", result });
        }
      }
      return out;
    }),
  );
  const all = perSource.flat();
  const corrections = new Map<number, string>();
  const verdicts = claims.map((c): ClaimVerdict => {
    const mine = all.filter((x) => x.position === c.position);
    const best = bestOf(mine.map((x) => x.result)) ?? unverified("Not verified: no source was checked.");
    const correction = best.verdict === "unsupported" ? c.urls.map((url) => mine.find((x) => x.url === url)?.correction).find(Boolean) : undefined;
    if (correction) corrections.set(c.position, correction);
    return { position: c.position, sentence: c.text, urls: c.urls, ...best };
  });
  return { verdicts, corrections, recitations: new Map() };
}

/** A correction as the repair takes it: trimmed; one with no words left is none (the sentence is removed). */
function correctionOf(text: string): string {
  const sentence = text.trim();
  return /\p{L}{2}/u.test(sentence) ? sentence : "";
}

/**
 * The verifier's verdicts for a batch; sentences it skipped are asked once more on their own. A
 * call that fails (lost past its retries and repairs) leaves its sentences without a verdict, and
 * says why: they are unverified, as those of a verifier whose verdicts name nothing.
 */
async function askVerifier(url: string, source: SourceText, batch: Claim[], calls: Calls): Promise<{ verdicts: Map<number, ModelVerdict>; failure?: string; held: boolean }> {
  /** Whether a prompt went out held to the model's context window: its source was shown in part. */
  let held = false;
  const ask = (cs: Claim[]) =>
    verifyCitations({
      question: calls.question,
      source: { url, title: source.title, text: sourceWindow(source.text, cs.map((c) => c.text), calls.sourceBudgetTokens) },
      sentences: cs.map((c) => ({ id: c.position, text: c.text })),
      sourceBudgetTokens: calls.sourceBudgetTokens,
      onUsage: calls.onUsage,
      onHeld: () => (held = true),
      signal: calls.signal,
      schedule: calls.schedule,
    });
  const lost = (error: unknown) => {
    if (calls.signal?.aborted || !isLostCall(error)) throw error;
    return errorMessage(error).slice(0, 200);
  };
  let verdicts: Map<number, ModelVerdict>;
  try {
    verdicts = await ask(batch);
  } catch (error) {
    return { verdicts: new Map(), failure: lost(error), held };
  }
  const skipped = batch.filter((c) => !verdicts.has(c.position));
  if (skipped.length > 0) {
    try {
      for (const [id, v] of await ask(skipped)) verdicts.set(id, v);
    } catch (error) {
      return { verdicts, failure: lost(error), held };
    }
  }
  return { verdicts, held };
}
