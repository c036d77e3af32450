// POST /api/collections/:id/documents – upload one document (multipart, field "file"), parsed and indexed
// before the response; a file that cannot be read gets an error naming it, and nothing is stored
import { readUploadedFile } from "@/lib/api/document-upload";
import { requireCaller } from "@/lib/auth/caller";
import { otherMethods, route } from "@/lib/http";
import { addDocument, assertWritable } from "@/lib/knowledge/collections";

type Context = { params: Promise<{ id: string }> };

export const POST = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  // Authorised before the body is read: another user's collection is a 404 whatever is sent.
  await assertWritable(userId, id);
  const file = await readUploadedFile(request);
  return Response.json({ document: await addDocument(userId, id, file) }, { status: 201 });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
