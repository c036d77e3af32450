// Query functions for a chat client's calls outside runs (lib/answer/chat-limits.ts): rows of the
// planning-call table of kind "chat-task", counted by the chat limits.
import { db } from "./client";

const KIND = "chat-task";

/** The user's chat calls not ended and started after `since` (older ones are counted as crashed). */
export async function countChatCallsInFlight({ userId, since }: { userId: string; since: Date }): Promise<number> {
  return db.planningCall.count({ where: { userId, kind: KIND, endedAt: null, startedAt: { gte: since } } });
}

/** When the user's chat calls since `since` started, oldest first, at most `limit`. */
export async function listChatCallStartTimes({ userId, since, limit }: { userId: string; since: Date; limit: number }): Promise<Date[]> {
  const rows = await db.planningCall.findMany({ where: { userId, kind: KIND, startedAt: { gte: since } }, select: { startedAt: true }, orderBy: { startedAt: "asc" }, take: limit });
  return rows.map((r) => r.startedAt);
}
