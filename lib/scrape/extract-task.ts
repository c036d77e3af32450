// One fetched body → readable text: what an extraction worker runs (lib/scrape/extract-pool.ts), and
// what runs in process when there are no workers. Errors come back as data: a ScrapeError does not
// keep its class across processes.
import { decodeBody } from "./content";
import { ScrapeError, type ScrapeFailure } from "./errors";
import { extractHtml } from "./html";
import { extractPdf } from "./pdf";

/**
 * A fetched body: an HTML page's bytes with its header's charset (decoded where the task runs — a
 * worker, off the event loop; the bytes move to it without a copy of the text), or a PDF's.
 */
export type ExtractInput = { kind: "html"; body: Uint8Array; charset: string | null; url: string } | { kind: "pdf"; body: Uint8Array };

export type ExtractOutput =
  | { ok: true; title: string | null; text: string; author: string | null; published: string | null }
  | { ok: false; reason: ScrapeFailure; message: string };

/** `signal` is for the in-process path; in a worker process the page runs to its end, within the pool's limits. */
export async function extractTask(input: ExtractInput, signal?: AbortSignal): Promise<ExtractOutput> {
  try {
    if (input.kind === "html") {
      const html = decodeBody(Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength), "html", input.charset);
      const { title, text, author, published } = extractHtml(html, input.url);
      return { ok: true, title, text, author, published };
    }
    const { title, text } = await extractPdf(Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength), signal);
    return { ok: true, title, text, author: null, published: null };
  } catch (error) {
    if (error instanceof ScrapeError) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}
