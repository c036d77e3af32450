// POST /api/collections/:id/reindex – parse and index every document again from its stored file
import { requireCaller } from "@/lib/auth/caller";
import { otherMethods, route } from "@/lib/http";
import { reindexCollection } from "@/lib/knowledge/collections";

type Context = { params: Promise<{ id: string }> };

export const POST = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  return Response.json(await reindexCollection(userId, (await params).id));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
