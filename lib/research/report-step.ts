// The last step: a cited Markdown report from the extracted content only. When the content is too
// large for one call, each branch is summarised first (keeping its URLs). Then every citation is
// checked against the URLs that were actually analysed, and numbered with a titled source list.
// Each part of the report is verified as soon as it is written, while the model writes the next
// (lib/verification/streamed.ts): the verification of the whole then ends with its last part.
import { renderSources, summarizeBranch, writeReport, type Learning } from "./agents/write-report";
import { estimateTokens, tag, trimToTokens } from "../ai/prompts";
import type { RunContext } from "../explore/context";
import { verifyCitations } from "../verification/cited-urls";
import { citedSourceCount, linkReferenceMarkers, numberCitations } from "../report-citations";
import { PartSplitter, StreamedVerification } from "../verification/streamed";
import type { SourceText } from "../verification/verify-report";
import * as store from "../db/tree";
import { fitToContext, withContextRetry } from "../ai/context-limit";
import { wordsKey } from "../validation/text";
import { languageProblem, type Language } from "../ai/language";

export interface WrittenReport {
  /** The report as written: citations checked and numbered, with its source list. */
  markdown: string;
  /** Its parts' verification, begun while it was written (absent: nothing verified yet). */
  early?: StreamedVerification;
  /** The stored text of the research's pages, as the early verification read it. */
  sources?: ReadonlyMap<string, SourceText>;
}

export async function buildReport(ctx: RunContext): Promise<WrittenReport> {
  // What the report's end needs is read now, beside the learnings, not after the report is written.
  const [byBranch, pages, titles] = await Promise.all([store.learningsByBranch(ctx.id), store.pageTexts(ctx.id), store.pageTitles(ctx.id)]);
  const learnings = distinctLearnings(byBranch);
  if (learnings.length === 0) return { markdown: await noFindingsReport(ctx) };
  const analysed = new Set(learnings.map((l) => l.url));

  // Built again, held to the window, when the server refuses the prompt as longer than its context (lib/ai/context-limit.ts).
  return withContextRetry(async (): Promise<WrittenReport> => {
    let learningSources = renderSources(learnings);
    if (estimateTokens(learningSources) > ctx.budgetOf("REPORT_TOKEN_BUDGET")) {
      const branches = new Map<string, { query: string; learnings: Learning[] }>();
      for (const l of learnings) {
        const branch = branches.get(l.branchId) ?? { query: l.branchQuery, learnings: [] };
        branch.learnings.push(l);
        branches.set(l.branchId, branch);
      }
      const perBranchBudget = Math.floor(ctx.budgetOf("REPORT_TOKEN_BUDGET") / Math.max(1, branches.size));
      const summaries = await Promise.all(
        [...branches.values()].map(async (b) => {
          const summary = await summarizeBranch({
            prompt: ctx.prompt,
            branchQuery: b.query,
            learnings: b.learnings,
            budgetTokens: fitToContext(Math.max(perBranchBudget * 3, 2_000)),
            targetTokens: perBranchBudget,
            onUsage: ctx.usage(),
            signal: ctx.signal,
            schedule: ctx.schedule({ kind: "report" }),
          });
          // Held to its share whatever the model wrote: the report's prompt must fit.
          return tag("branch_summary", trimToTokens(summary, perBranchBudget), { query: b.query });
        }),
      );
      learningSources = summaries.join("\n");
    }

    const early = new StreamedVerification({
      question: ctx.prompt,
      sources: pages,
      sourceBudgetTokens: ctx.budgetOf("PAGE_TOKEN_BUDGET"),
      onUsage: ctx.usage(),
      signal: ctx.signal,
      schedule: ctx.schedule({ kind: "report" }),
    });
    // A finished part as the stored report will have it: its citations checked, the model's own source list dropped.
    const parts = new PartSplitter(
      (part) => early.add(numberCitations(verifyCitations(part, analysed).markdown, new Map()).markdown),
      () => early.endSection(),
    );
    let restart = false;
    /** Why the draft starts over, told with its first delta: what was wrong with the report written before. */
    let restartNote: string | undefined;
    // Written again (the server cut its prompt, or the report cited nothing): the draft and the parts begin anew.
    const restartDraft = (note?: string) => {
      restart = true;
      restartNote = note;
      ctx.reportDraft = "";
      parts.reset();
    };
    const write = (problem?: string) =>
      writeReport({
        prompt: ctx.prompt,
        qa: ctx.qa,
        language: ctx.language,
        sources: learningSources,
        problem,
        onDelta: (delta) => {
          ctx.reportDraft += delta;
          ctx.emit({ type: "report.delta", data: restart ? { delta, restart: true, ...(restartNote ? { note: restartNote } : {}) } : { delta } });
          restart = false;
          parts.push(delta);
        },
        onRestart: () => restartDraft(),
        onUsage: ctx.usage(),
        signal: ctx.signal,
        schedule: ctx.schedule({ kind: "report" }),
      });
    // Citations by number to the model's own reference list become links first (lib/report-citations.ts).
    // The last part goes to the verification as soon as the stream ends, before the report's own checks: its
    // checks are what is left after the report (a draft written again drops their verdicts, as its other parts').
    const check = async (written: Promise<string>) => {
      const markdown = await written;
      parts.end();
      return verifyCitations(linkReferenceMarkers(markdown), analysed);
    };
    let checked;
    try {
      checked = await check(write());
      // A report that cites none of the sources it was given (a small model that let the rule go, a refusal), or
      // written in another language than the researcher's (a model following its sources' or drifting, as Qwen's
      // do into Chinese): written once more, the model told so. The second stands (its uncited facts are flagged).
      const problems = reportProblems(checked.markdown, analysed.size, ctx.language);
      if (problems.length > 0) {
        console.warn(`[quarry] research ${ctx.id}: ${problems.map((p) => p.log).join("; ")}; asking the model to write it again`);
        restartDraft(`Written again: ${problems.map((p) => p.log).join("; ")}.`);
        checked = await check(write(problems.map((p) => p.told).join("\n")));
      }
    } catch (error) {
      early.cancel();
      throw error;
    }
    if (checked.removed.length > 0) {
      console.warn(`[quarry] research ${ctx.id}: removed ${checked.removed.length} citation(s) to URLs that were not analysed`);
    }
    // Numbers are assigned here, not trusted to the model: the stored report is what every view shows.
    return { markdown: numberCitations(checked.markdown, titles).markdown, early, sources: pages };
  });
}

/** What was wrong with a written report: what the log says, and what the model is told. */
function reportProblems(markdown: string, sources: number, language: Language | null): { log: string; told: string }[] {
  const problems: { log: string; told: string }[] = [];
  if (citedSourceCount(markdown) === 0) problems.push({ log: `the report cited none of its ${sources} sources`, told: NO_CITATIONS });
  const inAnother = languageProblem(markdown, language, "report");
  if (inAnother) problems.push(inAnother);
  return problems;
}

/** What the report writer is told when its report cited no source. */
const NO_CITATIONS =
  "The report you wrote cites none of the sources. Write the whole report again, citing every factual claim right after it with a numbered link to its source's exact url (or the source's id, e.g. [S3]), as the rules say. Use only the sources' content.";

/**
 * One of each learning per URL (case, spacing and punctuation aside), the first branch that found it
 * keeping it: queries reading the same page for close objectives extract the same facts, and the
 * repeats would push the content over REPORT_TOKEN_BUDGET and into branch summaries (more calls).
 */
export function distinctLearnings<T extends { content: string; url: string }>(learnings: T[]): T[] {
  const seen = new Set<string>();
  return learnings.filter((l) => {
    const key = `${l.url}\u0000${wordsKey(l.content)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function noFindingsReport(ctx: RunContext): Promise<string> {
  const queries = await store.queriesOf(ctx.id);
  const lines = queries.map((q) => `- ${q.text} — ${q.status}${q.error ? `: ${q.error}` : ""}`);
  return [
    `# ${ctx.prompt}`,
    "",
    "No report could be written: none of the pages found for the research queries yielded content for their objectives, so there is nothing to cite.",
    "",
    "## Queries",
    ...lines,
  ].join("\n");
}
