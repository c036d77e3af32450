// GET /api/research/:id/export?format=md|pdf|docx|tex – the report as a file to take away (tex: the LaTeX paper, zipped)
import { requireCaller } from "@/lib/auth/caller";
import { exportFormat, exportResponse } from "@/lib/api/export-response";
import { researchExists } from "@/lib/db/research";
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";
import { researchExport } from "@/lib/research/export-view";
import { researchPaper } from "@/lib/research/paper";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const format = exportFormat(request);
  const { userId } = await requireCaller(request);
  const { id } = await params;
  const exported = await researchExport({ id, userId });
  if (!exported) {
    if (!(await researchExists({ id, userId }))) throw new AppError("not_found:research", "Research not found");
    throw new AppError("not_found:report", "This research has no report yet");
  }
  return exportResponse({ doc: exported.doc, paper: () => researchPaper(exported) }, format);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
