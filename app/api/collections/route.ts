// GET /api/collections – the caller's collections and the shared one; POST – create a collection { name }
import { requireCaller } from "@/lib/auth/caller";
import { otherMethods, parseBody, route } from "@/lib/http";
import { createCollection, listCollections } from "@/lib/knowledge/collections";
import { collectionNameSchema } from "@/lib/knowledge/schema";

export const GET = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  return Response.json({ collections: await listCollections(userId) });
});

export const POST = route(async (request: Request) => {
  const { name } = await parseBody(request, collectionNameSchema, "collection");
  const { userId } = await requireCaller(request);
  return Response.json({ collection: await createCollection(userId, name) }, { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
