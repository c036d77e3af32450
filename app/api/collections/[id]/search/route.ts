// GET /api/collections/:id/search?q=…&limit=… – the collection's passages ranked for q
import { requireCaller } from "@/lib/auth/caller";
import { otherMethods, parseQuery, route } from "@/lib/http";
import { assertReadable } from "@/lib/knowledge/collections";
import { searchQuerySchema } from "@/lib/knowledge/schema";
import { searchKnowledge } from "@/lib/knowledge/search";
import { withUserEmbeddingUsage } from "@/lib/knowledge/usage";

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const { q, limit } = parseQuery(request, searchQuerySchema, "search");
  const { userId } = await requireCaller(request);
  const { id } = await params;
  await assertReadable(userId, id);
  const hits = await withUserEmbeddingUsage({ userId, kind: "knowledge-search", subjectId: id }, (onUsage) => searchKnowledge({ userId, collectionIds: [id], query: q, limit, onUsage }));
  return Response.json({ results: hits });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
