// research: a tree research (POST /api/research/start without the follow-up questions step) followed to
// its end: the report with its numbered citations and its sources. Progress while it runs: queries
// finished of those the tree will have, pages analysed, then the report. A cancel from the client
// cancels the research; a closed connection leaves it going (get_report reads it once written).
import { z } from "zod";
import { getResearch } from "../../db/research";
import { getEnv } from "../../env";
import { reportTitle } from "../../exports/document";
import { AppError } from "../../errors";
import type { TreeRunEvent } from "../../explore/events";
import { splitNumberedSources } from "../../report-citations";
import { startRequestSchema } from "../../research/schema";
import { cancelResearch, startResearch } from "../../research/service";
import { totalQueries } from "../../tree-arithmetic";
import { parseStringArray } from "../../explore/public-shape";
import type { ToolContext } from "../context";
import { followToEnd } from "../follow";
import { parseWith, sourcesOf, sourcesShape } from "../inputs";
import { reportUri } from "../reports";
import { toolError, toolResult } from "../results";
import { noteStarted } from "../started";

export function researchInput() {
  const env = getEnv();
  return {
    prompt: z.string().min(1).max(10_000).describe("What to research: the question, and what the report should cover."),
    depth: z.number().int().min(1).max(env.MAX_DEPTH).default(2).describe(`Levels of the query tree (1–${env.MAX_DEPTH}, default 2): each level follows up what the one before found.`),
    breadth: z.number().int().min(1).max(env.MAX_BREADTH).default(3).describe(`Queries on the first level (1–${env.MAX_BREADTH}, default 3); each level below has half as many per query.`),
    ...sourcesShape,
  };
}

export const researchOutput = {
  researchId: z.string(),
  title: z.string(),
  report: z.string().describe("The report in Markdown; citations are numbered links [n](url), listed under ## Sources at its end."),
  sources: z.array(z.object({ n: z.number().describe("The citation's number in the report"), title: z.string(), url: z.string() })),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() }),
  warnings: z.array(z.string()).describe("What the research could not do fully but went on without."),
  uri: z.string().describe("The report as an MCP resource."),
};

type Args = { prompt: string; depth: number; breadth: number; collections?: string[]; web?: boolean };

/**
 * Progress in units of the tree: each finished query is one, the pages analysed so far add a part
 * of one that grows with every page and never reaches it (so progress only grows, as the protocol
 * requires), then one for the report being written and one for the end.
 */
function treeProgress(expected: number) {
  const finished = new Set<string>();
  const analysed = new Set<string>();
  let writing = false;
  const total = expected + 2;
  const at = () => (writing ? expected + 1 : finished.size + analysed.size / (analysed.size + 1));
  const message = () =>
    writing ? "Writing the report" : `${finished.size} of about ${expected} queries done · ${analysed.size} pages analysed`;
  return {
    total,
    /** The update an event makes, if any. */
    on(e: TreeRunEvent): { progress: number; total: number; message: string } | null {
      if (e.type === "query.status" && (e.data.status === "completed" || e.data.status === "failed")) finished.add(e.data.query_id);
      else if ((e.type === "page.status" || e.type === "item.extracted") && e.data.status === "analyzed") analysed.add(e.data.id);
      else if (e.type === "report.delta" && !writing) writing = true;
      else if (e.type === "run.status" && e.data.status === "completed") return { progress: total, total, message: "Done" };
      else return null;
      return { progress: at(), total, message: message() };
    },
  };
}

export async function research(args: Args, ctx: ToolContext) {
  const input = parseWith(
    startRequestSchema(),
    { initial_prompt: args.prompt, followup_answers: [], depth: args.depth, breadth: args.breadth, sources: sourcesOf(args) },
    "research",
    { initial_prompt: "prompt", sources: "collections" },
  );
  const { research_id: id } = await startResearch({ userId: ctx.userId, input });
  noteStarted("tree", id);
  const progress = treeProgress(totalQueries(input.depth, input.breadth));
  await ctx.progress({ progress: 0, total: progress.total, message: "Research started" });
  const end = await followToEnd<TreeRunEvent>({
    kind: "tree",
    subjectId: id,
    userId: ctx.userId,
    signal: ctx.signal,
    notFound: new AppError("not_found:research", "Research not found"),
    onEvent: (e) => {
      const update = progress.on(e);
      return update ? ctx.progress(update) : undefined;
    },
  });
  if (end === "aborted") {
    if (ctx.cancelled()) await cancelResearch({ id, userId: ctx.userId }).catch(() => undefined);
    return toolError(new AppError("conflict:research", `The call was cancelled or its connection closed (research ${id})`));
  }
  const row = await getResearch({ id, userId: ctx.userId });
  if (!row) throw new AppError("not_found:research", "Research not found");
  if (row.status !== "completed" || !row.report) {
    return toolError(new AppError("unavailable:research", `The research ${row.status}: ${row.error ?? "no report"} (research ${id}; it can be resumed in the web app or with POST /api/research/${id}/resume)`));
  }
  const { sources } = splitNumberedSources(row.report);
  const structured = {
    researchId: id,
    title: reportTitle(row.report, row.initialPrompt),
    report: row.report,
    sources,
    usage: { promptTokens: row.promptTokens, completionTokens: row.completionTokens, totalTokens: row.promptTokens + row.completionTokens },
    warnings: parseStringArray(row.warnings),
    uri: reportUri("research", id),
  };
  return toolResult(structured, `${row.report}\n\n(research ${id}; ${structured.usage.totalTokens} tokens)`);
}
