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
import { isLostCall } from "../ai/errors";
import type { UsageSink } from "../ai/usage";
import type { WaitOptions } from "../concurrency";
import * as store from "../db/verifications";
import { errorMessage } from "../errors";
import { tokenize } from "./align";
import { claimsOf, reportBody, type Claim } from "./claims";
import { applyRepairs, type RepairEdit } from "./repair";
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
}

type Calls = Pick<VerifyOptions, "question" | "onUsage" | "signal" | "schedule" | "sourceBudgetTokens" | "sources">;

/** Sentences a verifier call judges at most: a long list dilutes its attention. */
const BATCH = 12;

/** Runs (or resumes) the verification; resolves with the report to store: repaired, or as written. */
export async function verifyReport(options: VerifyOptions): Promise<string> {
  let v = await store.openVerification(options.subject, options.report);
  const original = reportBody(v.original);
  const claims = claimsOf(original.body);

  // "repairing": a verification saved by an earlier version between its first pass and the repair
  // (whose corrections were not kept) is judged again.
  if (v.status === "checking" || v.status === "repairing") {
    const { verdicts, corrections } = await judge(claims, options);
    const edits = verdicts
      .filter((x) => x.verdict === "unsupported" && x.urls.length > 0)
      .map((x): RepairEdit => {
        const sentence = corrections.get(x.position);
        // A "correction" that says what the sentence said is no fix: the sentence goes.
        return sentence && !sameWords(sentence, x.sentence) ? { position: x.position, action: "rewrite", sentence } : { position: x.position, action: "remove" };
      });
    const repair =
      edits.length === 0
        ? ({ status: "done" } as const)
        : {
            status: "rechecking" as const,
            repaired: applyRepairs(original.body, claims, edits, original.sourceTitles),
            removed: edits.filter((e) => e.action === "remove").length,
            rewritten: edits.filter((e) => e.action === "rewrite").length,
          };
    v = await store.savePass(v.id, 1, verdicts, countVerdicts(verdicts), repair);
    if (v.status === "done") await warnIfUnjudged(verdicts, options);
  }
  if (v.status === "rechecking" && v.repaired !== null) {
    const pass1 = await store.verdictsOf(v.id, 1);
    const { report, verdicts, removed } = await recheck(v.repaired, pass1, options);
    v = await store.savePass(v.id, 2, verdicts, countVerdicts(verdicts), { status: "done", repaired: report, removed: v.removed + removed, rewritten: Math.max(0, v.rewritten - removed) });
    await warnIfUnjudged(verdicts, options);
  }
  return v.repaired ?? v.original;
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

const keyOf = (sentence: string, urls: string[]) => `${sentence}\u0000${urls.join(" ")}`;

/**
 * Pass 2 on the repaired report: sentences the repair left alone keep their pass-1 verdicts; the
 * rewritten ones (every sentence of a rewrite) are judged, and a rewritten sentence judged
 * unsupported is removed. Every cited sentence of the final report has a verdict: the view's counts
 * are the stored report's.
 */
async function recheck(repaired: string, pass1: store.VerdictRow[], calls: Calls) {
  const before = new Map(pass1.map((v) => [keyOf(v.sentence, v.urls), v]));
  let { body, sourceTitles } = reportBody(repaired);
  let claims = claimsOf(body);
  const fresh = claims.filter((c) => c.urls.length > 0 && !before.has(keyOf(c.text, c.urls)));
  const judged = new Map((await judgeCited(fresh, calls)).verdicts.map((v) => [v.position, v]));
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

/** Pass 1: every cited sentence judged, and the uncited sentences that state facts flagged. */
async function judge(claims: Claim[], calls: Calls): Promise<Judged> {
  const uncited = claims.filter((c) => c.urls.length === 0);
  const [cited, factual] = await Promise.all([judgeCited(claims.filter((c) => c.urls.length > 0), calls), findFactual(uncited, calls)]);
  const flagged: ClaimVerdict[] =
    "failure" in factual
      ? // The finder's call failed: whether these sentences state facts is not known. They are kept and marked.
        uncited.map((c) => ({ position: c.position, sentence: c.text, urls: [], ...unverified(`Not verified: the check for facts stated without a citation failed (${factual.failure}).`) }))
      : uncited
          .filter((c) => factual.ids.has(c.position))
          .map((c) => ({ position: c.position, sentence: c.text, urls: [], verdict: "uncited", quote: null, quoteUrl: null, note: "States a fact without citing a source." }));
  return { verdicts: [...cited.verdicts, ...flagged].sort((a, b) => a.position - b.position), corrections: cited.corrections };
}

/** The uncited sentences that state facts, or the reason the finder could not say. */
async function findFactual(uncited: Claim[], calls: Calls): Promise<{ ids: Set<number> } | { failure: string }> {
  try {
    return { ids: await findUncitedClaims({ question: calls.question, sentences: uncited.map((c) => ({ id: c.position, text: c.text })), onUsage: calls.onUsage, signal: calls.signal, schedule: calls.schedule }) };
  } catch (error) {
    if (calls.signal?.aborted || !isLostCall(error)) throw error;
    return { failure: errorMessage(error).slice(0, 200) };
  }
}

interface Judged {
  verdicts: ClaimVerdict[];
  /** An unsupported sentence's correction, by position: the first of its sources (in citation order) to give one. */
  corrections: Map<number, string>;
}

/** Each cited sentence's verdict: one verifier call per source (in batches), the best source's verdict kept. */
async function judgeCited(claims: Claim[], calls: Calls): Promise<Judged> {
  const byUrl = new Map<string, Claim[]>();
  for (const c of claims) for (const url of c.urls) byUrl.set(url, [...(byUrl.get(url) ?? []), c]);
  const perSource = await Promise.all(
    [...byUrl.entries()].map(async ([url, cs]) => {
      const source = calls.sources.get(url);
      if (!source?.text.trim()) return cs.map((c) => ({ position: c.position, url, correction: "", result: unverified(`Not verified: there is no stored text of ${url} to check against.`) }));
      const out: { position: number; url: string; correction: string; result: CheckedVerdict }[] = [];
      for (let i = 0; i < cs.length; i += BATCH) {
        const batch = cs.slice(i, i + BATCH);
        const { verdicts: models, failure } = await askVerifier(url, source, batch, calls);
        for (const c of batch) {
          const model = models.get(c.position);
          const result = model
            ? checkVerdict(model, source.text, url, c.text)
            : unverified(failure ? `Not verified: the verifier's call against ${url} failed (${failure}).` : `Not verified: the verifier gave no usable verdict against ${url}.`);
          out.push({ position: c.position, url, correction: model?.verdict === "unsupported" ? correctionOf(model.correction) : "", result });
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
  return { verdicts, corrections };
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
async function askVerifier(url: string, source: SourceText, batch: Claim[], calls: Calls): Promise<{ verdicts: Map<number, ModelVerdict>; failure?: string }> {
  const ask = (cs: Claim[]) =>
    verifyCitations({
      question: calls.question,
      source: { url, title: source.title, text: sourceWindow(source.text, cs.map((c) => c.text), calls.sourceBudgetTokens) },
      sentences: cs.map((c) => ({ id: c.position, text: c.text })),
      sourceBudgetTokens: calls.sourceBudgetTokens,
      onUsage: calls.onUsage,
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
    return { verdicts: new Map(), failure: lost(error) };
  }
  const skipped = batch.filter((c) => !verdicts.has(c.position));
  if (skipped.length > 0) {
    try {
      for (const [id, v] of await ask(skipped)) verdicts.set(id, v);
    } catch (error) {
      return { verdicts, failure: lost(error) };
    }
  }
  return { verdicts };
}
