// After the report is written: its citations are verified against the pages' stored text and
// unsupported sentences repaired (lib/verification). A report without links is verified too (its
// factual sentences are uncited claims), unless it is the program's own note that nothing was found.
// A verification that cannot finish costs the report nothing: it is kept as written, with a warning,
// and its verification reads "failed"; one whose verifier could not judge most claims ends with
// them kept and marked, and a warning on the same path.
import { isLostCall } from "../ai/errors";
import { errorMessage } from "../errors";
import type { RunContext } from "../explore/context";
import { failVerification } from "../db/verifications";
import { verifyReport } from "../verification/verify-report";
import type { WrittenReport } from "./report-step";
import * as store from "../db/tree";

/** The report verified (its parts verified while it was written are taken as they were judged). */
export async function verifiedReport(ctx: RunContext, written: WrittenReport): Promise<string> {
  const report = written.markdown;
  // No citations and no findings: the report is the program's note that nothing was found, no claim of a model's.
  if (!written.early && !/\]\(https?:\/\//.test(report) && (await store.learningsOf(ctx.id)).length === 0) return report;
  try {
    return await verifyReport({
      subject: { researchId: ctx.id },
      question: ctx.prompt,
      report,
      early: written.early,
      sources: written.sources ?? (await store.pageTexts(ctx.id)),
      sourceBudgetTokens: ctx.budgetOf("PAGE_TOKEN_BUDGET"),
      onWarning: (message) => ctx.warn(message),
      onUsage: ctx.usage(),
      signal: ctx.signal,
      schedule: ctx.schedule({ kind: "report" }),
    });
  } catch (error) {
    if (ctx.signal.aborted || !isLostCall(error)) throw error;
    await ctx.warn(`The citations could not be verified (${errorMessage(error)}); the report is shown as written.`);
    await failVerification({ researchId: ctx.id });
    return report;
  }
}
