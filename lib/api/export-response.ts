// An export as an HTTP download: the format from `?format=`, the file as an attachment.
import { z } from "zod";
import { parseQuery } from "./body";
import { EXPORT_FORMATS, type ExportDocument, type ExportFormat } from "../exports/document";
import { renderExport, type ExportFile } from "../exports/render";
import type { PaperInput } from "../exports/latex/paper";
import { paperZip } from "../exports/latex/zip";

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

/**
 * The export of a report view: the document formats from the document itself, the LaTeX paper
 * (`tex`) from the engine's paper input, which is built only when asked for.
 */
export async function exportResponse(
  view: { doc: ExportDocument; paper: () => Promise<PaperInput> },
  format: ExportFormat,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const file = format === "tex" ? await paperZip(await view.paper()) : await renderExport(view.doc, format);
  return fileResponse(file, extraHeaders);
}
