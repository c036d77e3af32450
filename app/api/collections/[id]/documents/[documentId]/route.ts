// GET /api/collections/:id/documents/:documentId – the document and its passages (page or section each);
// DELETE – remove it from the collection and the index
import { requireCaller } from "@/lib/auth/caller";
import { otherMethods, route } from "@/lib/http";
import { deleteDocument, getDocument } from "@/lib/knowledge/collections";

type Context = { params: Promise<{ id: string; documentId: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id, documentId } = await params;
  return Response.json({ document: await getDocument(userId, id, documentId) });
});

export const DELETE = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id, documentId } = await params;
  await deleteDocument(userId, id, documentId);
  return new Response(null, { status: 204 });
});

export const { POST, PUT, PATCH, OPTIONS } = otherMethods("GET", "DELETE");
