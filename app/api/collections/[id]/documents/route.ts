// GET /api/collections/:id/documents?page&limit&sort&order&type&status&name – one page of the
// collection's documents, sorted and filtered by the database (a bad parameter: 400 naming it).
// POST – upload one document (multipart, field "file"), parsed and indexed before the response; a file
// that cannot be read gets an error naming it, nothing of it is indexed, and the failed upload stays
// listed (status failed, with its reason) until it is removed.
import { readUploadedFile } from "@/lib/api/document-upload";
import { requireCaller } from "@/lib/auth/caller";
import { otherMethods, parseQuery, route } from "@/lib/http";
import { addDocument, assertWritable, listDocumentPage } from "@/lib/knowledge/collections";
import { documentListQuerySchema } from "@/lib/knowledge/schema";

type Context = { params: Promise<{ id: string }> };

export const POST = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  // Authorised before the body is read: another user's collection is a 404 whatever is sent.
  await assertWritable(userId, id);
  const file = await readUploadedFile(request);
  return Response.json({ document: await addDocument(userId, id, file) }, { status: 201 });
});

export const GET = route(async (request: Request, { params }: Context) => {
  const query = parseQuery(request, documentListQuerySchema, "documents");
  const { userId } = await requireCaller(request);
  return Response.json(await listDocumentPage(userId, (await params).id, query));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
