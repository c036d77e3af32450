// A collection's Documents page: its documents a page at a time (sorted and filtered by the server),
// a search over their passages, uploads with their progress and the failed ones kept until dismissed.
// The first page is rendered here, on the server, so the page needs no request before it shows it.
import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { CollectionDocuments } from "@/components/knowledge/collection-documents";
import { getSessionUserId } from "@/lib/auth/caller";
import { AppError } from "@/lib/errors";
import { getCollectionSummary, listDocumentPage } from "@/lib/knowledge/collections";

export const metadata: Metadata = { title: "Documents – Quarry" };

type Props = { params: Promise<{ id: string }> };

// The list the page opens with: newest first, 50 a page (the client's DEFAULT_LIST, which reuses it).
const FIRST_PAGE = { page: 1, limit: 50, sort: "added", order: "desc" } as const;

export default async function CollectionPage({ params }: Props) {
  const { id } = await params;
  const userId = await getSessionUserId();
  if (!userId) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/collections/${id}`)}`);
  let data: [Awaited<ReturnType<typeof getCollectionSummary>>, Awaited<ReturnType<typeof listDocumentPage>>];
  try {
    data = await Promise.all([getCollectionSummary(userId, id), listDocumentPage(userId, id, FIRST_PAGE)]);
  } catch (error) {
    if (error instanceof AppError && error.type === "not_found") notFound();
    throw error;
  }
  const [collection, page] = data;
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8">
      <CollectionDocuments collection={collection} initialPage={page} />
    </div>
  );
}
