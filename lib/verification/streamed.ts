// Verifying a report while it is written. The report streams; each line of it that is finished (a
// paragraph, a list item: the claims of a report are read line by line, claims.ts) has its cited
// sentences judged at once, while the model writes the next, and each finished section its uncited
// ones — the same checks, with the same agents, as the whole report's (judgeCited, findFactual of
// verify-report.ts); a sentence judged unsupported there with a correction has its rewrite judged at
// once too (pass 2's work). At a real model's speed (a part coming a second or more after the first) each
// cited sentence goes in a call of its own as soon as its line is finished: a verdict with its quote
// takes seconds to generate (40 tokens/s: ~1.5 s), and the checks of a last section, or of a last line
// of three sentences, judged together would be left after the report (a line's three verdicts in one
// reply ended 3.4 s after the report); a report written at once has each line's in one call. The
// finder of uncited facts answers with ids only, so a section's uncited sentences go in one call. verifyReport then
// takes these verdicts instead of asking again, so that a streamed report's verification ends with
// its last part, not one full round of calls after it.
//
// A sentence's verdict depends on the sentence and its sources alone, so taking it from its part
// changes nothing in what is stored: the passes, the repair and the view are the whole report's.
// Whatever was not judged early (a part whose checks failed in a way that is no verdict, text the
// final report has and the parts had not) is judged by verifyReport as before. A verifier call that
// fails is an "unverified" verdict here as there.
import { claimsOf, reportBody, type Claim } from "./claims";
import { rewritten } from "./repair";
import type { CheckedVerdict, ClaimVerdict, SourceVerdict } from "./verdicts";
import { citedElsewhere } from "./paraphrase";
import { asCovered, findFactual, judgeCited, keyOf, usableCorrection, type Calls, type Prejudged, type PrejudgedCited, type PrejudgedUncited } from "./verify-report";

/** How long after the report's first part a part comes from a writer slow enough that its checks go a sentence a call. */
const SLOW_WRITER_MS = 1_000;

export class StreamedVerification {
  private readonly cited = new Map<string, PrejudgedCited>();
  private readonly uncited = new Map<string, PrejudgedUncited>();
  /** Sentences given to a check already (by key), so that a repeated sentence is asked once. */
  private readonly asked = new Set<string>();
  private readonly work: Promise<void>[] = [];
  private readonly controller = new AbortController();
  private readonly calls: Calls;
  /** Uncited sentences of the section being written, asked about when it ends. */
  private pendingUncited: Claim[] = [];
  /** When the first part came: parts that come a while after it come from a model writing slowly. */
  private firstPartAt: number | undefined;
  /** Parts given, and the checks that ended without verdicts (failed in a way that is no verdict). */
  parts = 0;
  failedChecks = 0;

  private readonly slowWriterMs: number;

  constructor(calls: Calls, { slowWriterMs = SLOW_WRITER_MS }: { slowWriterMs?: number } = {}) {
    this.slowWriterMs = slowWriterMs;
    if (calls.signal?.aborted) this.controller.abort(calls.signal.reason);
    calls.signal?.addEventListener("abort", () => this.controller.abort(calls.signal?.reason), { once: true });
    this.calls = { ...calls, signal: this.controller.signal };
  }

  /**
   * A finished part of the report, as it will stand in the stored report (its citations checked
   * against the pages read): its cited sentences are judged now, its uncited ones with its section's.
   */
  add(markdown: string): void {
    if (this.controller.signal.aborted) return;
    // Never in the report's way: a part that cannot be read here is judged with the whole report.
    let claims: Claim[];
    try {
      claims = claimsOf(reportBody(markdown).body);
    } catch {
      this.failedChecks++;
      return;
    }
    const fresh = (key: string) => !this.asked.has(key) && Boolean(this.asked.add(key));
    // A sentence its paragraph's citation covers is judged against that citation too (verify-report's judge).
    const cited = [...claims.filter((c) => c.urls.length > 0), ...claims.filter((c) => c.covering).map(asCovered)].filter((c) => fresh(keyOf(c.text, c.urls)));
    const uncited = claims.filter((c) => c.urls.length === 0 && fresh(`\u0000${c.text}`));
    if (cited.length === 0 && uncited.length === 0) return;
    this.parts++;
    this.firstPartAt ??= Date.now();
    // A report written slowly (a real model's speed): a call per sentence, since the checks of the parts
    // finished last are what is left after the report, and a line's three verdicts with their quotes take
    // three times one's to generate. One written at once: a call per line (all are checked after it in one
    // round either way, and a call per sentence would send its source again for each).
    if (cited.length > 0 && Date.now() - this.firstPartAt < this.slowWriterMs) this.track(this.judgePart(cited));
    else for (const c of cited) this.track(this.judgePart([c]));
    // Positions are the finder's ids: unique within its call.
    for (const c of uncited) this.pendingUncited.push({ ...c, position: this.pendingUncited.length });
  }

  /** A section ended (or the report): its uncited sentences are asked about, in one call. */
  endSection(): void {
    const uncited = this.pendingUncited;
    this.pendingUncited = [];
    if (uncited.length === 0 || this.controller.signal.aborted) return;
    this.track(
      findFactual(uncited, this.calls).then((found) => {
        for (const c of uncited) {
          const f = found.get(c.position);
          if (f) this.uncited.set(c.text, f);
        }
      }),
    );
  }

  /** Pass 1 on a part's cited sentences, then pass 2 on the rewrites of those judged unsupported. */
  private async judgePart(claims: Claim[]): Promise<void> {
    const { verdicts, corrections } = await judgeCited(claims, this.calls);
    const rewrites: Claim[] = [];
    for (const [i, v] of verdicts.entries()) {
      const result = checkedOf(v);
      const correction = v.verdict === "unsupported" ? (corrections.get(v.position) ?? "") : "";
      const repairable = v.verdict === "unsupported" && v.urls.length > 0 && !claims[i].row && !claims[i].covering;
      // Cited to the other source that says it, as the repair will (verify-report's edits, which take this decision): judged against that one now.
      const elsewhere = repairable ? citedElsewhere(v.sentence, v.urls, this.calls.sources) : undefined;
      this.cited.set(keyOf(v.sentence, v.urls), { result, correction, elsewhere: repairable ? (elsewhere ?? null) : undefined });
      if (elsewhere && !this.asked.has(keyOf(v.sentence, [elsewhere]))) rewrites.push({ ...claims[i], urls: [elsewhere] });
      const usable = repairable && !elsewhere ? usableCorrection(correction, v.sentence) : undefined;
      // Every sentence of the rewrite, as the repair will write it into the report.
      if (usable) rewrites.push(...claimsOf(rewritten(claims[i], usable)).filter((c) => c.urls.length > 0 && !this.asked.has(keyOf(c.text, c.urls))));
    }
    if (rewrites.length === 0) return;
    for (const c of rewrites) this.asked.add(keyOf(c.text, c.urls));
    const again = await judgeCited(rewrites.map((c, position) => ({ ...c, position })), this.calls);
    for (const v of again.verdicts) {
      if (!this.cited.has(keyOf(v.sentence, v.urls))) this.cited.set(keyOf(v.sentence, v.urls), { result: checkedOf(v), correction: "" });
    }
  }

  private track(job: Promise<void>): void {
    // A check that ends without verdicts leaves its sentences to verifyReport, which asks again (and
    // reports an abort or an unexpected error there, where the run handles it).
    this.work.push(
      job.catch(() => {
        this.failedChecks++;
      }),
    );
  }

  /** Stops the checks in flight (the report was not written after all). */
  cancel(): void {
    this.controller.abort(new Error("the report was not written"));
  }

  /** Resolves, once every part's checks have ended, with their verdicts. */
  async settled(): Promise<Prejudged> {
    this.endSection();
    await Promise.all(this.work);
    return { cited: this.cited, uncited: this.uncited };
  }
}

/** A cited sentence's verdict as judged (a cited sentence's is never "uncited"). */
function checkedOf(v: ClaimVerdict): CheckedVerdict {
  return { verdict: v.verdict as SourceVerdict, quote: v.quote, quoteUrl: v.quoteUrl, note: v.note };
}

/**
 * Cuts a streamed Markdown report into its finished parts: a line once it ends (a fenced code block
 * once it closes, whole), each with the heading of its section (the model's own source list is known
 * by it); and says where a section ends (a heading begins, or the report ends: end()).
 */
export class PartSplitter {
  private buffer = "";
  private lines: string[] = [];
  private heading = "";
  private fenced = false;
  /** A table's first row, until the line under it says whether it is a header; and whether the last line was a table's. */
  private tableHead = "";
  private inTable = false;

  constructor(
    private readonly onPart: (markdown: string) => void,
    private readonly onSectionEnd: () => void = () => undefined,
  ) {}

  push(delta: string): void {
    this.buffer += delta;
    const last = this.buffer.lastIndexOf("\n");
    if (last === -1) return;
    const complete = this.buffer.slice(0, last);
    this.buffer = this.buffer.slice(last + 1);
    for (const line of complete.split("\n")) this.line(line);
  }

  /** The text begins again (its reply started over): nothing of what came is kept. */
  reset(): void {
    this.buffer = "";
    this.lines = [];
    this.heading = "";
    this.fenced = false;
    this.tableHead = "";
    this.inTable = false;
  }

  /** The stream ended: what is left is the last part. */
  end(): void {
    if (this.buffer) this.line(this.buffer);
    this.buffer = "";
    if (this.tableHead) this.lines.push(this.tableHead);
    this.tableHead = "";
    this.flush();
    this.onSectionEnd();
  }

  private line(line: string): void {
    // A table's first row is held for the next line: with the delimiter row under it, it is a header (no claim).
    const held = this.tableHead;
    this.tableHead = "";
    if (held) {
      if (/^\s*\|?(\s*:?-+:?\s*\|)+/.test(line)) {
        this.lines.push(held, line);
        this.flush();
        this.inTable = true;
        return;
      }
      this.lines.push(held);
      this.flush();
    }
    const row = !this.fenced && /^\s*\|/.test(line);
    if (row && !this.inTable) {
      this.tableHead = line;
      this.inTable = true;
      return;
    }
    this.inTable = row;
    if (/^\s*(```|~~~)/.test(line)) this.fenced = !this.fenced;
    if (!this.fenced && /^\s*#{1,6}\s/.test(line)) {
      this.flush();
      this.onSectionEnd();
      this.heading = line;
      return;
    }
    if (this.fenced || /^\s*(```|~~~)/.test(line)) {
      // A code block is given whole, once it closes.
      this.lines.push(line);
      if (!this.fenced) this.flush();
      return;
    }
    if (line.trim() !== "") this.lines.push(line);
    this.flush();
  }

  private flush(): void {
    if (this.lines.length === 0 || this.fenced) return;
    const text = this.lines.join("\n");
    this.lines = [];
    this.onPart(this.heading ? `${this.heading}\n\n${text}\n` : `${text}\n`);
  }
}
