// A knowledge-base document as its passages, by page (PDF) or section, with the cited passage
// (?chunk=…) highlighted and scrolled to; a PDF also opens in the browser's viewer at the page.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { ScrollIntoView } from "@/components/knowledge/scroll-into-view";
import { getSessionUserId } from "@/lib/auth/caller";
import { AppError } from "@/lib/errors";
import { getDocument } from "@/lib/knowledge/collections";

export const metadata: Metadata = { title: "Document – Quarry" };

type Props = { params: Promise<{ id: string; documentId: string }>; searchParams: Promise<{ chunk?: string; page?: string }> };

export default async function DocumentPage({ params, searchParams }: Props) {
  const { id, documentId } = await params;
  const { chunk: cited, page } = await searchParams;
  const userId = await getSessionUserId();
  if (!userId) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/collections/${id}/documents/${documentId}`)}`);
  let doc: Awaited<ReturnType<typeof getDocument>>;
  try {
    doc = await getDocument(userId, id, documentId);
  } catch (error) {
    if (error instanceof AppError && error.type === "not_found") notFound();
    throw error;
  }
  const citedChunk = doc.chunks.find((c) => c.id === cited);
  const fileUrl = `/api/collections/${id}/documents/${documentId}/file`;
  const label = (c: { page: number | null; section: string | null }) => (c.page !== null ? `Page ${c.page}` : c.section ?? "");
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-1">
        <Link href={`/collections/${id}`} className="text-sm text-muted hover:underline">
          {doc.collection.name}
        </Link>
        <h1 className="break-words text-2xl font-semibold" data-testid="document-name">{doc.title ?? doc.name}</h1>
        <p className="text-sm text-muted">
          {doc.name} · {doc.format.toUpperCase()}
          {doc.encoding && doc.encoding !== "UTF-8" ? <span data-testid="document-encoding"> · read as {doc.encoding}</span> : null}
          {doc.pageCount ? ` · ${doc.pageCount} pages` : ""} ·{" "}
          <a href={doc.format === "pdf" ? `${fileUrl}#page=${citedChunk?.page ?? page ?? 1}` : fileUrl} target="_blank" rel="noreferrer noopener" className="text-accent hover:underline" data-testid="document-original">
            {doc.format === "pdf" ? `open the PDF${citedChunk?.page ? ` at page ${citedChunk.page}` : ""}` : "original file"}
          </a>
        </p>
      </header>
      <article className="flex flex-col gap-4">
        {doc.chunks.map((c, i) => {
          const heading = label(c);
          const newPlace = i === 0 || heading !== label(doc.chunks[i - 1]);
          return (
            <section key={c.id} className="flex flex-col gap-2">
              {newPlace && heading ? <h2 className="mt-4 text-sm font-semibold uppercase tracking-wide text-muted">{heading}</h2> : null}
              {c.id === cited ? (
                <mark id={`chunk-${c.id}`} data-testid="cited-passage" className="whitespace-pre-wrap rounded bg-accent-soft px-1 text-inherit">
                  {c.text}
                </mark>
              ) : (
                <p id={`chunk-${c.id}`} className="whitespace-pre-wrap">{c.text}</p>
              )}
            </section>
          );
        })}
      </article>
      {citedChunk ? <ScrollIntoView targetId={`chunk-${citedChunk.id}`} /> : null}
    </div>
  );
}
