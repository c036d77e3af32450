// GET /api/research – the caller's researches, newest first (history)
import { listResearches } from "@/lib/db/research";
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { toResearchSummary } from "@/lib/research/public-shape";
import { listQuerySchema } from "@/lib/research/schema";

export const GET = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = listQuerySchema.safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request:research", issue.message, { field: String(issue.path[0] ?? "") || undefined });
  }
  const { rows, nextCursor } = await listResearches({
    userId,
    status: parsed.data.status,
    search: parsed.data.q || undefined,
    limit: parsed.data.limit,
    cursor: parsed.data.cursor,
  });
  return Response.json({ researches: rows.map(toResearchSummary), next_cursor: nextCursor });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
