// GET /api/research/:id/items – the research's extracted items, a page at a time (`after`, `limit`),
// all of them or one query's (`query_id`) or one website's (`website_id`): what the lean views leave out
import { parseQuery } from "@/lib/api/body";
import { requireCaller } from "@/lib/auth/caller";
import { otherMethods, route } from "@/lib/http";
import { researchItemsQuerySchema } from "@/lib/research/schema";
import { getResearchItems } from "@/lib/research/service";

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id: researchId } = await params;
  const q = parseQuery(request, researchItemsQuerySchema, "research");
  return Response.json(await getResearchItems({ id: researchId, userId, queryId: q.query_id, websiteId: q.website_id, after: q.after, limit: q.limit }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
