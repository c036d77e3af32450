// GET /api/share/:token/export?format=md|pdf|docx|tex – a shared report or Deep Research write-up as a file; no sign-in; 404 for a bad link; 429 past the link's hourly downloads
import { exportFormat, exportResponse } from "@/lib/api/export-response";
import { loadSharedExport } from "@/lib/api/shared";
import { AppError } from "@/lib/errors";
import { takeShareExport } from "@/lib/exports/share-limit";
import { otherMethods, route } from "@/lib/http";

export const GET = route(async (request: Request, { params }: { params: Promise<{ token: string }> }) => {
  const format = exportFormat(request);
  const { token } = await params;
  takeShareExport(token);
  const exported = await loadSharedExport(token);
  if (!exported) throw new AppError("not_found:share", "This link does not exist, was revoked or has expired, or its report is not written yet.");
  return exportResponse(exported, format, { "X-Robots-Tag": "noindex" });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
