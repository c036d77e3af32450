// Query functions for clarification sessions. Each status change is a compare-and-set on the
// status it starts from, so two racing calls cannot both move a session on.
import { db } from "./client";
import type { ClarificationSession } from "../generated/prisma/client";

export type { ClarificationSession };

export async function createClarificationSession(data: { userId: string; query: string; datasets: string; questions: string; reasoning: string }) {
  return db.clarificationSession.create({ data: { ...data, status: "questions_generated" } });
}

export async function getClarificationSession({ id, userId }: { id: string; userId: string }) {
  return db.clarificationSession.findFirst({ where: { id, userId } });
}

/** Moves the session from `from` with `data`; null when its status was no longer `from`. */
export async function moveClarificationSession(
  id: string,
  from: string,
  data: Partial<Pick<ClarificationSession, "status" | "answers" | "plan" | "feedbackHistory">>,
): Promise<ClarificationSession | null> {
  const { count } = await db.clarificationSession.updateMany({ where: { id, status: from }, data });
  return count === 1 ? db.clarificationSession.findUnique({ where: { id } }) : null;
}
