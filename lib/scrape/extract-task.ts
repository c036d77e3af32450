// One fetched body → readable text: what an extraction worker runs (lib/scrape/extract-pool.ts), and
// what runs in process when there are no workers. Errors come back as data: a ScrapeError does not
// keep its class across threads.
import { ScrapeError, type ScrapeFailure } from "./errors";
import { extractHtml } from "./html";
import { extractPdf } from "./pdf";

export type ExtractInput = { kind: "html"; html: string; url: string } | { kind: "pdf"; body: Uint8Array };

export type ExtractOutput =
  | { ok: true; title: string | null; text: string; author: string | null; published: string | null }
  | { ok: false; reason: ScrapeFailure; message: string };

/** `signal` is for the in-process path; in a worker, piscina ends the thread of an aborted task. */
export async function extractTask(input: ExtractInput, signal?: AbortSignal): Promise<ExtractOutput> {
  try {
    if (input.kind === "html") {
      const { title, text, author, published } = extractHtml(input.html, input.url);
      return { ok: true, title, text, author, published };
    }
    const { title, text } = await extractPdf(Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength), signal);
    return { ok: true, title, text, author: null, published: null };
  } catch (error) {
    if (error instanceof ScrapeError) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}
