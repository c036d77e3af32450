// Query functions for researches. `userId` scopes every lookup by owner; `undefined` is for the
// engine itself (runner, resume), which acts on behalf of the research's owner.
import { db } from "./client";
import { containsIgnoringCase } from "./portable";
import type { ResearchGraph } from "../research/public-shape";
import type { ResearchStatus } from "../types";

export type Owner = { userId?: string | null };

/** A query page as views and events show it: the page without its text, and the extracted items. */
export const QUERY_PAGE_ROW = { page: { omit: { content: true } }, items: true } as const;

function ownerWhere({ userId }: Owner) {
  return userId === undefined ? {} : { userId };
}

export async function createResearch({ userId, initialPrompt, questions }: { userId: string | null; initialPrompt: string; questions: string[] }) {
  return db.research.create({
    data: { userId, initialPrompt, followupQuestions: JSON.stringify(questions), status: "draft" },
  });
}

export async function getResearch({ id, ...owner }: { id: string } & Owner) {
  return db.research.findFirst({ where: { id, ...ownerWhere(owner) } });
}

export async function loadResearchGraph({ id, ...owner }: { id: string } & Owner): Promise<ResearchGraph | null> {
  const research = await db.research.findFirst({ where: { id, ...ownerWhere(owner) }, include: { queries: true } });
  if (!research) return null;
  const queryPages = await db.queryPage.findMany({
    where: { query: { researchId: id } },
    include: QUERY_PAGE_ROW,
  });
  return { ...research, queryPages };
}

export async function listResearches({
  status,
  search,
  limit,
  cursor,
  ...owner
}: Owner & { status?: ResearchStatus; search?: string; limit: number; cursor?: string }) {
  const rows = await db.research.findMany({
    where: {
      ...ownerWhere(owner),
      ...(status ? { status } : {}),
      ...(search ? { initialPrompt: containsIgnoringCase(search) } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
  });
  return { rows: rows.slice(0, limit), nextCursor: rows.length > limit ? rows[limit - 1].id : null };
}

export async function saveStartParameters({
  id,
  answers,
  depth,
  breadth,
}: {
  id: string;
  answers: string[];
  depth: number;
  breadth: number;
}) {
  // Only a draft can start: a second start of the same research is refused by the caller.
  const { count } = await db.research.updateMany({
    where: { id, status: "draft" },
    data: { followupAnswers: JSON.stringify(answers), depth, breadth, status: "running", startedAt: new Date() },
  });
  return count === 1;
}

export async function deleteResearch({ id, ...owner }: { id: string } & Owner) {
  const { count } = await db.research.deleteMany({ where: { id, ...ownerWhere(owner) } });
  return count === 1;
}

export async function countExtractedItems({ researchId }: { researchId: string }) {
  return db.extractedItem.count({ where: { researchId } });
}
