// GET /api/collections/:id – the collection and its documents; PATCH – rename { name }; DELETE – delete it
import { requireCaller } from "@/lib/auth/caller";
import { otherMethods, parseBody, route } from "@/lib/http";
import { deleteCollection, getCollection, renameCollection } from "@/lib/knowledge/collections";
import { collectionNameSchema } from "@/lib/knowledge/schema";

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  return Response.json({ collection: await getCollection(userId, (await params).id) });
});

export const PATCH = route(async (request: Request, { params }: Context) => {
  const { name } = await parseBody(request, collectionNameSchema, "collection");
  const { userId } = await requireCaller(request);
  return Response.json({ collection: await renameCollection(userId, (await params).id, name) });
});

export const DELETE = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  await deleteCollection(userId, (await params).id);
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethods("GET", "PATCH", "DELETE");
