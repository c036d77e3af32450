// What a follow-up research inherits from the research it follows: the findings (of the whole
// research, or of one branch: a query and every query under it), in the order they were found,
// rendered for its agents within a token budget.
import { trimToTokens } from "../ai/prompts";
import type { Research } from "../db/types";
import { learningsOf, queriesOf } from "../db/tree";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { promptBudget } from "../ai/context-limit";

export interface FollowUpLink {
  parentResearchId: string;
  parentQueryId: string | null;
  background: string;
}

/** The ids of `rootId` and every query under it. */
export function subtreeIds(queries: { id: string; parentId: string | null }[], rootId: string): Set<string> {
  const children = new Map<string, string[]>();
  for (const q of queries) if (q.parentId) children.set(q.parentId, [...(children.get(q.parentId) ?? []), q.id]);
  const ids = new Set<string>();
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (ids.has(id)) continue;
    ids.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return ids;
}

export async function followUpLink({ parent, queryId }: { parent: Research; queryId?: string }): Promise<FollowUpLink> {
  if (parent.status === "draft" || parent.status === "running") {
    throw new AppError("conflict:research", `A follow-up builds on a research that has ended (status: ${parent.status})`);
  }
  const queries = await queriesOf(parent.id);
  const branch = queryId ? queries.find((q) => q.id === queryId) : undefined;
  if (queryId && !branch) throw new AppError("bad_request:research", `Unknown query_id: ${queryId} is not a query of this research`, { field: "query_id" });
  const inBranch = branch ? subtreeIds(queries, branch.id) : null;
  const learnings = (await learningsOf(parent.id)).filter((l) => !inBranch || inBranch.has(l.queryId));
  if (learnings.length === 0) {
    throw new AppError("conflict:research", branch ? "Nothing was found in this branch yet to build on" : "Nothing was found yet to build on");
  }
  const header = `Earlier research: "${parent.initialPrompt}"${branch ? `, the branch of the query "${branch.text}"` : ""}. What it found:`;
  const budget = Math.min(2_000, Math.floor(promptBudget(getEnv(), "CONTEXT_TOKEN_BUDGET") / 3));
  const findings = trimToTokens(learnings.map((l) => `- ${l.content} (${l.url})`).join("\n"), budget);
  return { parentResearchId: parent.id, parentQueryId: branch?.id ?? null, background: `${header}\n${findings}` };
}
