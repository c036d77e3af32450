// An export as an HTTP download: the format from `?format=`, the file as an attachment.
import { z } from "zod";
import { parseQuery } from "./body";
import { EXPORT_FORMATS, type ExportDocument, type ExportFormat } from "../exports/document";
import { renderExport, type ExportFile } from "../exports/render";

export const exportQuery = z.object({
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(", ")}` }),
});

export function exportFormat(request: Request): ExportFormat {
  return parseQuery(request, exportQuery, "export").format;
}

export function fileResponse(file: ExportFile, extraHeaders: Record<string, string> = {}): Response {
  // RFC 6266: an ASCII fallback and the UTF-8 name.
  const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return new Response(Buffer.from(file.body), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      "Cache-Control": "private, no-store",
      ...extraHeaders,
    },
  });
}

export async function documentResponse(doc: ExportDocument, format: ExportFormat, extraHeaders: Record<string, string> = {}): Promise<Response> {
  return fileResponse(await renderExport(doc, format), extraHeaders);
}
