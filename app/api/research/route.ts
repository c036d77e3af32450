// GET /api/research – the caller's researches, newest first (history)
import { listResearches } from "@/lib/db/research";
import { otherMethods, parseQuery, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { toResearchSummary } from "@/lib/explore/public-shape";
import { listQuerySchema } from "@/lib/research/schema";

export const GET = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const query = parseQuery(request, listQuerySchema, "research");
  const { rows, nextCursor } = await listResearches({
    userId,
    status: query.status,
    search: query.q || undefined,
    limit: query.limit,
    cursor: query.cursor,
  });
  return Response.json({ researches: rows.map(toResearchSummary), next_cursor: nextCursor });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
