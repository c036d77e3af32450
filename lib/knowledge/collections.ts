// The knowledge base's service: collections and their documents, for one caller. A collection the
// caller may not read is not found (404, like a research); the shared KNOWLEDGE_DOCS_PATH collection
// is readable by everyone and writable by no one (it follows its folder).
import type { UsageSink } from "../ai/usage";
import { AppError, errorMessage } from "../errors";
import * as store from "../db/knowledge";
import crypto from "node:crypto";
import type { DocumentListQuery } from "./schema";
import { textEncodingOf } from "./encoding";
import { cleanFileName, formatByExtension } from "./formats";
import { prepareDocument } from "./index-document";
import { withUserEmbeddingUsage } from "./usage";

type CollectionRow = NonNullable<Awaited<ReturnType<typeof store.findReadableCollection>>>;

export interface CollectionView {
  id: string;
  name: string;
  /** The shared, read-only collection of KNOWLEDGE_DOCS_PATH. */
  shared: boolean;
  documentCount: number;
  createdAt: string;
  updatedAt: string;
}

function view(row: CollectionRow): CollectionView {
  return {
    id: row.id,
    name: row.name,
    shared: row.userId === null,
    documentCount: row._count.documents,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type DocumentRow = Awaited<ReturnType<typeof store.listDocuments>>[number];

export function documentView(row: DocumentRow) {
  return {
    id: row.id,
    collectionId: row.collectionId,
    name: row.name,
    title: row.title,
    format: row.format,
    bytes: row.bytes,
    status: row.status,
    error: row.error,
    pageCount: row.pageCount,
    chunkCount: row.chunkCount,
    /** The encoding a text file was read in (UTF-8, UTF-16LE, Windows-1252, ISO-8859-1 …); null for PDF and DOCX. */
    encoding: row.encoding,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type DocumentView = ReturnType<typeof documentView>;

const notFound = () => new AppError("not_found:collection", "Collection not found.");

async function readable(userId: string, id: string): Promise<CollectionRow> {
  const row = await store.findReadableCollection({ id, userId });
  if (!row) throw notFound();
  return row;
}

/** A collection the caller may change: their own (others' are 404; the shared one is read-only, 403). */
async function writable(userId: string, id: string): Promise<CollectionRow> {
  const row = await readable(userId, id);
  if (row.userId === null) throw new AppError("forbidden:collection", `"${row.name}" is the shared collection of KNOWLEDGE_DOCS_PATH: it follows its folder and cannot be changed here.`);
  return row;
}

export async function createCollection(userId: string, name: string): Promise<CollectionView> {
  return view(await store.createCollection({ userId, name }));
}

export async function listCollections(userId: string): Promise<CollectionView[]> {
  return (await store.listCollections({ userId })).map(view);
}

/** A readable collection without its documents (the Documents page lists those a page at a time). */
export async function getCollectionSummary(userId: string, id: string): Promise<CollectionView> {
  return view(await readable(userId, id));
}

export async function getCollection(userId: string, id: string): Promise<CollectionView & { documents: DocumentView[] }> {
  const row = await readable(userId, id);
  return { ...view(row), documents: (await store.listDocuments({ collectionId: id })).map(documentView) };
}

export interface DocumentPage {
  documents: DocumentView[];
  /** Documents matching the filters, over all pages. */
  total: number;
  page: number;
  limit: number;
  pages: number;
  sort: DocumentListQuery["sort"];
  order: DocumentListQuery["order"];
  /** The whole collection's documents by status and by type (format), whatever the filters. */
  counts: { status: Record<string, number>; type: Record<string, number> };
}

/** One page of a readable collection's documents, sorted and filtered by the database. */
export async function listDocumentPage(userId: string, id: string, query: DocumentListQuery): Promise<DocumentPage> {
  await readable(userId, id);
  const { page, limit, sort, order } = query;
  const result = await store.listDocumentsPage({
    collectionId: id,
    sort,
    order,
    skip: (page - 1) * limit,
    take: limit,
    format: query.type,
    status: query.status,
    name: query.name || undefined,
  });
  return {
    documents: result.rows.map(documentView),
    total: result.total,
    page,
    limit,
    pages: Math.max(1, Math.ceil(result.total / limit)),
    sort,
    order,
    counts: { status: result.statusCounts, type: result.formatCounts },
  };
}

export async function renameCollection(userId: string, id: string, name: string): Promise<CollectionView> {
  await writable(userId, id);
  return view(await store.renameCollection({ id, name }));
}

export async function deleteCollection(userId: string, id: string): Promise<void> {
  await writable(userId, id);
  await store.deleteCollection({ id });
}

/**
 * Parses and indexes one uploaded file. A file that cannot be read is refused with an error naming it,
 * nothing of it is indexed, and the failed upload is kept as the collection's record of it (status
 * failed, its reason, its bytes: a re-index tries it again) until it is removed, so that the page
 * still lists it, with the reason, after a reload.
 */
export async function addDocument(userId: string, collectionId: string, file: { name: string; bytes: Uint8Array }): Promise<DocumentView> {
  await writable(userId, collectionId);
  const name = cleanFileName(file.name);
  let prepared: Awaited<ReturnType<typeof prepareDocument>>;
  try {
    prepared = await withUserEmbeddingUsage({ userId, kind: "knowledge-index", subjectId: collectionId }, (onUsage) => prepareDocument(name, file.bytes, { onUsage }));
  } catch (error) {
    if (error instanceof AppError && error.field === "file") await recordFailedUpload(collectionId, name, file.bytes, error.message);
    throw error;
  }
  const { meta, chunks } = prepared;
  const encoding = textEncodingOf(meta.format, file.bytes);
  return documentView(await store.createIndexedDocument({ collectionId, meta: { ...meta, encoding }, content: file.bytes, chunks }));
}

async function recordFailedUpload(collectionId: string, name: string, bytes: Uint8Array, error: string): Promise<void> {
  // As the shared folder records a file it cannot read: the format its extension names, else the extension.
  const format = formatByExtension(name) ?? (name.match(/\.([^.]{1,16})$/)?.[1]?.toLowerCase() || "unknown");
  const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
  try {
    await store.recordFailedDocument({ collectionId, meta: { name, format, bytes: bytes.length, sha256 }, content: bytes, error });
  } catch (recordError) {
    // The upload's own error is what the caller must see; a lost record only costs the list its line.
    console.warn(`[quarry] knowledge base: the failed upload "${name}" could not be recorded (${errorMessage(recordError)})`);
  }
}

export async function deleteDocument(userId: string, collectionId: string, documentId: string): Promise<void> {
  await writable(userId, collectionId);
  if (!(await store.deleteDocument({ id: documentId, collectionId }))) throw new AppError("not_found:document", "Document not found.");
}

/**
 * Parses every document again from its stored bytes (after a parser or chunking change); returns the
 * new state. Counted as one upload against the user's limits, its embeddings recorded against them.
 */
export async function reindexCollection(userId: string, id: string): Promise<{ documents: DocumentView[] }> {
  await writable(userId, id);
  await withUserEmbeddingUsage({ userId, kind: "knowledge-index", subjectId: id }, (onUsage) => reindexDocuments(id, { onUsage }));
  return { documents: (await store.listDocuments({ collectionId: id })).map(documentView) };
}

/**
 * One document at a time: each holds its file's bytes in memory only while it is parsed. Between two
 * documents the loop lets the server's other requests run (setImmediate: the database calls on SQLite
 * answer without giving the event loop a turn), so a re-index of 1,000 documents never stalls them.
 */
export async function reindexDocuments(collectionId: string, { onUsage }: { onUsage?: UsageSink } = {}): Promise<void> {
  for (const id of await store.documentIds({ collectionId })) {
    await yieldToOtherRequests();
    const doc = await store.getDocumentContent({ id });
    if (!doc) continue; // deleted meanwhile
    try {
      const { meta, chunks } = await prepareDocument(doc.name, doc.content, { onUsage });
      await store.replaceDocumentChunks({ id, collectionId, title: meta.title, pageCount: meta.pageCount, chunks });
    } catch (error) {
      await store.markDocumentFailed({ id, error: errorMessage(error) });
    }
  }
}

const yieldToOtherRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A document with its passages (the document view), in a collection the caller may read. */
export async function getDocument(userId: string, collectionId: string, documentId: string) {
  const row = await store.getReadableDocument({ id: documentId, userId });
  if (!row || row.collection.id !== collectionId) throw new AppError("not_found:document", "Document not found.");
  return {
    ...documentView(row),
    collection: { id: row.collection.id, name: row.collection.name, shared: row.collection.userId === null },
    chunks: row.chunks,
  };
}

/** The original file of a readable document (the PDF viewer opens it at the cited page). */
export async function getDocumentFile(userId: string, collectionId: string, documentId: string) {
  const { encoding } = await getDocument(userId, collectionId, documentId);
  const doc = await store.getDocumentContent({ id: documentId });
  if (!doc) throw new AppError("not_found:document", "Document not found.");
  return { name: doc.name, content: doc.content, encoding };
}

/** Makes sure the caller may add to the collection before a large body is read. */
export async function assertWritable(userId: string, collectionId: string): Promise<void> {
  await writable(userId, collectionId);
}

/** Makes sure the caller may read the collection. */
export async function assertReadable(userId: string, collectionId: string): Promise<void> {
  await readable(userId, collectionId);
}
