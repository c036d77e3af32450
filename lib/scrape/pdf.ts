// PDF → text with unpdf (PDF.js). Loaded on first use: most pages are HTML and PDF.js is large.
import { raceAbort } from "./abort";
import { ScrapeError } from "./errors";
import { tidyText } from "./html";

export async function extractPdf(body: Buffer, signal?: AbortSignal): Promise<{ title: string | null; text: string }> {
  const { extractText, getDocumentProxy, getMeta } = await import("unpdf");
  // PDF.js may take ownership of the bytes it is given, so it gets a copy.
  const loading = getDocumentProxy(new Uint8Array(body));
  type Doc = Awaited<typeof loading>;
  const close = (doc: Doc) => void doc.loadingTask.destroy().catch(() => {});
  let pdf: Doc | undefined;
  try {
    pdf = await raceAbort(loading, signal, () => void loading.then(close, () => {}));
    const doc = pdf;
    const [{ text }, meta] = await raceAbort(
      Promise.all([extractText(doc, { mergePages: true }), getMeta(doc).catch(() => null)]),
      signal,
      () => close(doc),
    );
    const title = typeof meta?.info?.Title === "string" ? meta.info.Title.replace(/\s+/g, " ").trim() : "";
    return { title: title || null, text: tidyText(text) };
  } catch (error) {
    if (signal?.aborted) throw error;
    const detail = error instanceof Error ? error.message.slice(0, 120) : "unknown error";
    throw new ScrapeError("empty", `Could not extract text from the PDF: ${detail}`, { cause: error });
  } finally {
    if (pdf) close(pdf);
  }
}
