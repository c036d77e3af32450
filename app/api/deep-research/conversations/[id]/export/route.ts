// GET /api/deep-research/conversations/:id/export?format=md|pdf|docx|tex – the write-up (last reply and discoveries) as a file; tex: the LaTeX paper, zipped
import { requireCaller } from "@/lib/auth/caller";
import { exportFormat, exportResponse } from "@/lib/api/export-response";
import { conversationExport } from "@/lib/deep-research/export-view";
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const format = exportFormat(request);
  const { userId } = await requireCaller(request);
  const { id } = await params;
  const exported = await conversationExport({ id, userId });
  if (!exported) throw new AppError("not_found:conversation", "Conversation not found, or it has no reply yet");
  return exportResponse(exported, format);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
