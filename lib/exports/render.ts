// One export path for every surface (the report page, the shared page, the API, the CLI): a
// document and a format in, the file's bytes, type and name out. The typeset formats are built once
// per report version (cache.ts); Markdown costs nothing to make again.
import { cachedExport, exportKey } from "./cache";
import { docxExport } from "./docx";
import type { ExportDocument, ExportFormat } from "./document";
import { markdownExport } from "./markdown";
import { pdfExport } from "./pdf";

export interface ExportFile {
  body: Uint8Array;
  contentType: string;
  fileName: string;
}

export async function renderExport(doc: ExportDocument, format: Exclude<ExportFormat, "tex">): Promise<ExportFile> {
  switch (format) {
    case "md":
      return { body: new TextEncoder().encode(markdownExport(doc)), contentType: "text/markdown; charset=utf-8", fileName: `${doc.fileStem}.md` };
    case "pdf":
      return cachedExport(exportKey("pdf", doc), async () => ({ body: await pdfExport(doc), contentType: "application/pdf", fileName: `${doc.fileStem}.pdf` }));
    case "docx":
      return cachedExport(exportKey("docx", doc), async () => ({
        body: await docxExport(doc),
        contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        fileName: `${doc.fileStem}.docx`,
      }));
  }
}
