// GET /api/research/:id/export?format=md|pdf|docx – the report as a file to take away
import { requireCaller } from "@/lib/auth/caller";
import { documentResponse, exportFormat } from "@/lib/api/export-response";
import { researchExists } from "@/lib/db/research";
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";
import { researchExport } from "@/lib/research/export-view";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const format = exportFormat(request);
  const { userId } = await requireCaller(request);
  const { id } = await params;
  const exported = await researchExport({ id, userId });
  if (!exported) {
    if (!(await researchExists({ id, userId }))) throw new AppError("not_found:research", "Research not found");
    throw new AppError("not_found:report", "This research has no report yet");
  }
  return documentResponse(exported.doc, format);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
