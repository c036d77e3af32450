// GET /api/collections/:id/documents/:documentId/file – the original file, shown inline (PDF viewer)
import { requireCaller } from "@/lib/auth/caller";
import { otherMethods, route } from "@/lib/http";
import { getDocumentFile } from "@/lib/knowledge/collections";

type Context = { params: Promise<{ id: string; documentId: string }> };

const TYPES: Record<string, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

export const GET = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id, documentId } = await params;
  const { name, content, encoding } = await getDocumentFile(userId, id, documentId);
  const extension = name.toLowerCase().split(".").pop() ?? "";
  // Markdown, text and HTML are sent as plain text: an uploaded HTML file must not run in Quarry's origin.
  // In the encoding the file was read in (a Windows-1252 file shown as UTF-8 would lose its accents).
  const type = TYPES[extension] ?? `text/plain; charset=${(encoding ?? "UTF-8").toLowerCase()}`;
  return new Response(new Uint8Array(content), {
    headers: {
      "content-type": type,
      "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(name)}`,
      "x-content-type-options": "nosniff",
      // No script of an uploaded file runs in Quarry's origin (a PDF keeps the browser's viewer, which sandbox would block).
      ...(type === TYPES.pdf ? {} : { "content-security-policy": "sandbox" }),
      "cache-control": "private, no-store",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
