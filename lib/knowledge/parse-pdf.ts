// PDF → one section per page (page numbers kept for citations), with unpdf (PDF.js), loaded on first use.
import { tidyText } from "../scrape/html";
import { documentError } from "./errors";
import type { ParsedSection } from "./sections";

export async function parsePdf(name: string, bytes: Uint8Array, maxPages: number): Promise<{ title: string | null; pageCount: number; sections: ParsedSection[] }> {
  const { extractText, getDocumentProxy, getMeta } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // PDF.js may take ownership of the bytes it is given, so it gets a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch (error) {
    if ((error as Error)?.name === "PasswordException") {
      throw documentError("encrypted", name, "the PDF is password-protected; Quarry cannot read it. Remove the password and upload it again.", error);
    }
    const detail = error instanceof Error ? error.message.slice(0, 120) : "unknown error";
    throw documentError("corrupt", name, `the PDF is damaged and cannot be read (${detail}).`, error);
  }
  try {
    if (pdf.numPages > maxPages) throw documentError("too_large", name, `the PDF has ${pdf.numPages} pages, more than the limit of ${maxPages} (KNOWLEDGE_MAX_PAGES).`);
    const [{ text }, meta] = await Promise.all([extractText(pdf, { mergePages: false }), getMeta(pdf).catch(() => null)]);
    const sections = text
      .map((pageText, i) => ({ page: i + 1, section: null, text: tidyText(pageText) }))
      .filter((s) => s.text.length > 0);
    if (sections.length === 0) throw documentError("empty", name, "the PDF has no text layer (a scan?); Quarry reads text, not images.");
    const title = typeof meta?.info?.Title === "string" ? meta.info.Title.replace(/\s+/g, " ").trim() : "";
    return { title: title || null, pageCount: pdf.numPages, sections };
  } catch (error) {
    if ((error as { code?: string }).code?.includes("document")) throw error;
    const detail = error instanceof Error ? error.message.slice(0, 120) : "unknown error";
    throw documentError("corrupt", name, `the PDF's text cannot be extracted (${detail}).`, error);
  } finally {
    void pdf.loadingTask.destroy().catch(() => {});
  }
}
