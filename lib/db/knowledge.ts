// Query functions for the knowledge base: collections (a user's own, or the shared one of
// KNOWLEDGE_DOCS_PATH with userId null), their documents (the original bytes kept) and the chunks
// that are searched. Every read of a user's object is scoped by owner; a collection another user owns
// is simply not found.
import { getEnv } from "../env";
import { sortNameOf } from "./sort-name";
import { db } from "./client";
import { databaseProvider } from "./database-url";
import { vectorStore, writeChunkVectors } from "./knowledge-vectors";

export interface ChunkInput {
  ordinal: number;
  page: number | null;
  section: string | null;
  text: string;
  /** float32 vector (lib/knowledge/embeddings.ts) and the model that made it, when EMBEDDING_MODEL is set. */
  embedding?: Uint8Array<ArrayBuffer> | null;
  embeddingModel?: string | null;
}

export interface DocumentMeta {
  name: string;
  format: string;
  bytes: number;
  sha256: string;
  title: string | null;
  pageCount: number | null;
  /** The encoding a text file was read in (lib/knowledge/encoding.ts); null or absent for PDF and DOCX. */
  encoding?: string | null;
}

/** Where these chunks' vectors go: only embedded chunks need the store (and set it up, on PostgreSQL). */
const storeFor = (chunks: ChunkInput[]) => (chunks.some((c) => c.embedding) ? vectorStore() : Promise.resolve("in-process" as const));

/** What a user may read: their own collections and the shared ones. */
const readable = (userId: string | null) => ({ OR: [{ userId }, { userId: null }] });

const collectionFields = {
  id: true,
  userId: true,
  name: true,
  sourceRoot: true,
  createdAt: true,
  updatedAt: true,
  _count: { select: { documents: true } },
} as const;

export async function createCollection({ userId, name }: { userId: string; name: string }) {
  return db.collection.create({ data: { userId, name }, select: collectionFields });
}

export async function listCollections({ userId }: { userId: string }) {
  return db.collection.findMany({ where: readable(userId), orderBy: [{ createdAt: "asc" }], select: collectionFields });
}

/** A collection the user may read (own or shared), or null. */
export async function findReadableCollection({ id, userId }: { id: string; userId: string }) {
  return db.collection.findFirst({ where: { id, ...readable(userId) }, select: collectionFields });
}

/** Those of `ids` the user may read (own or shared): the rest are silently someone else's. */
export async function readableCollectionIds({ ids, userId }: { ids: string[]; userId: string | null }): Promise<string[]> {
  const rows = await db.collection.findMany({ where: { id: { in: ids }, ...readable(userId) }, select: { id: true } });
  return rows.map((r) => r.id);
}

export async function renameCollection({ id, name }: { id: string; name: string }) {
  return db.collection.update({ where: { id }, data: { name }, select: collectionFields });
}

export async function deleteCollection({ id }: { id: string }): Promise<void> {
  await db.collection.delete({ where: { id } });
}

/** The shared collection that mirrors `sourceRoot`, created on first use. */
export async function sharedCollection({ sourceRoot, name }: { sourceRoot: string; name: string }) {
  return db.collection.upsert({ where: { sourceRoot }, create: { sourceRoot, name, userId: null }, update: {}, select: collectionFields });
}

const documentFields = {
  id: true,
  collectionId: true,
  name: true,
  format: true,
  bytes: true,
  status: true,
  error: true,
  title: true,
  pageCount: true,
  chunkCount: true,
  encoding: true,
  sourcePath: true,
  sourceMtime: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** A document and its chunks, written together: a search never sees a document half indexed. */
export async function createIndexedDocument({ collectionId, meta, content, chunks, sourcePath, sourceMtime }: {
  collectionId: string;
  meta: DocumentMeta;
  content: Uint8Array;
  chunks: ChunkInput[];
  sourcePath?: string;
  sourceMtime?: Date;
}) {
  const store = await storeFor(chunks);
  return db.$transaction(async (tx) => {
    const doc = await tx.knowledgeDocument.create({
      data: { collectionId, ...meta, sortName: sortNameOf(meta.name), content: Buffer.from(content), status: "ready", chunkCount: chunks.length, sourcePath, sourceMtime },
      select: documentFields,
    });
    await tx.knowledgeChunk.createMany({ data: chunks.map((c) => ({ ...c, documentId: doc.id, collectionId })) });
    await writeChunkVectors(tx, store, { documentId: doc.id, chunks });
    return doc;
  });
}

/** A file of a shared folder that could not be indexed: kept with its error so that users see why. */
export async function recordFailedDocument({ collectionId, meta, content, error, sourcePath, sourceMtime }: {
  collectionId: string;
  meta: Omit<DocumentMeta, "title" | "pageCount">;
  content: Uint8Array;
  error: string;
  sourcePath?: string;
  sourceMtime?: Date;
}) {
  return db.knowledgeDocument.create({
    data: { collectionId, ...meta, sortName: sortNameOf(meta.name), content: Buffer.from(content), status: "failed", error, sourcePath, sourceMtime },
    select: documentFields,
  });
}

/** Replaces a document's chunks (a re-index) in one transaction. */
export async function replaceDocumentChunks({ id, collectionId, title, pageCount, chunks }: {
  id: string;
  collectionId: string;
  title: string | null;
  pageCount: number | null;
  chunks: ChunkInput[];
}): Promise<void> {
  const store = await storeFor(chunks);
  await db.$transaction(async (tx) => {
    await tx.knowledgeChunk.deleteMany({ where: { documentId: id } });
    await tx.knowledgeChunk.createMany({ data: chunks.map((c) => ({ ...c, documentId: id, collectionId })) });
    await writeChunkVectors(tx, store, { documentId: id, chunks });
    await tx.knowledgeDocument.update({ where: { id }, data: { status: "ready", error: null, title, pageCount, chunkCount: chunks.length } });
  });
}

export async function markDocumentFailed({ id, error }: { id: string; error: string }): Promise<void> {
  await db.$transaction([
    db.knowledgeChunk.deleteMany({ where: { documentId: id } }),
    db.knowledgeDocument.update({ where: { id }, data: { status: "failed", error, chunkCount: 0 } }),
  ]);
}

export async function listDocuments({ collectionId }: { collectionId: string }) {
  return db.knowledgeDocument.findMany({ where: { collectionId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: documentFields });
}

/** The columns a documents list sorts by (the API's names → the table's). */
export const DOCUMENT_SORTS = { name: "sortName", type: "format", size: "bytes", added: "createdAt", status: "status" } as const;
export type DocumentSort = keyof typeof DOCUMENT_SORTS;

export interface DocumentPageQuery {
  collectionId: string;
  sort: DocumentSort;
  order: "asc" | "desc";
  /** 0-based offset of the first row. */
  skip: number;
  take: number;
  format?: string;
  status?: string;
  /** Part of the name (or title), case-insensitive on both databases for ASCII letters. */
  name?: string;
}

/**
 * One page of a collection's documents, sorted in the database (ties broken by id, so pages never
 * overlap), with the total matching the filters and the counts by status and by format of the whole
 * collection (for the filters' labels).
 */
const insensitive = () => (databaseProvider(getEnv().DATABASE_URL) === "postgresql" ? { mode: "insensitive" as const } : {});

export async function listDocumentsPage({ collectionId, sort, order, skip, take, format, status, name }: DocumentPageQuery) {
  const where = {
    collectionId,
    ...(format ? { format } : {}),
    ...(status ? { status } : {}),
    // SQLite's LIKE ignores ASCII case; PostgreSQL's needs to be told.
    ...(name ? { OR: [{ name: { contains: name, ...insensitive() } }, { title: { contains: name, ...insensitive() } }] } : {}),
  };
  const [rows, total, byStatus, byFormat] = await Promise.all([
    db.knowledgeDocument.findMany({ where, orderBy: [{ [DOCUMENT_SORTS[sort]]: order }, { id: order }], skip, take, select: documentFields }),
    db.knowledgeDocument.count({ where }),
    db.knowledgeDocument.groupBy({ by: ["status"], where: { collectionId }, _count: { _all: true } }),
    db.knowledgeDocument.groupBy({ by: ["format"], where: { collectionId }, _count: { _all: true } }),
  ]);
  return {
    rows,
    total,
    statusCounts: Object.fromEntries(byStatus.map((g) => [g.status, g._count._all])) as Record<string, number>,
    formatCounts: Object.fromEntries(byFormat.map((g) => [g.format, g._count._all])) as Record<string, number>,
  };
}

/** Ids and stored bytes of a collection's documents, one at a time for a re-index (bytes can be large). */
export async function documentIds({ collectionId }: { collectionId: string }): Promise<string[]> {
  return (await db.knowledgeDocument.findMany({ where: { collectionId }, select: { id: true }, orderBy: { createdAt: "asc" } })).map((d) => d.id);
}

export async function getDocumentContent({ id }: { id: string }) {
  return db.knowledgeDocument.findUnique({ where: { id }, select: { id: true, name: true, collectionId: true, content: true } });
}

/** A document in a collection the user may read, with its chunks (the document view). */
export async function getReadableDocument({ id, userId }: { id: string; userId: string }) {
  return db.knowledgeDocument.findFirst({
    where: { id, collection: readable(userId) },
    select: {
      ...documentFields,
      collection: { select: { id: true, name: true, userId: true } },
      chunks: { select: { id: true, ordinal: true, page: true, section: true, text: true }, orderBy: { ordinal: "asc" } },
    },
  });
}

export async function deleteDocument({ id, collectionId }: { id: string; collectionId: string }): Promise<boolean> {
  return (await db.knowledgeDocument.deleteMany({ where: { id, collectionId } })).count > 0;
}

/** The files a shared collection holds, by path under its folder, to sync it with the folder. */
export async function sourceFiles({ collectionId }: { collectionId: string }) {
  return db.knowledgeDocument.findMany({ where: { collectionId, sourcePath: { not: null } }, select: { id: true, sourcePath: true, sourceMtime: true, sha256: true } });
}

/** A shared folder's file changed: its new bytes and chunks replace the old in one transaction (same id, so citations stay valid). */
export async function replaceDocumentFile({ id, collectionId, meta, content, chunks, sourceMtime, error }: {
  id: string;
  collectionId: string;
  meta: Omit<DocumentMeta, "title" | "pageCount"> & Partial<Pick<DocumentMeta, "title" | "pageCount">>;
  content: Uint8Array;
  chunks: ChunkInput[];
  sourceMtime: Date;
  /** Set when the new version cannot be read: the document is kept, failed, with no chunks. */
  error?: string;
}): Promise<void> {
  const store = await storeFor(chunks);
  await db.$transaction(async (tx) => {
    await tx.knowledgeChunk.deleteMany({ where: { documentId: id } });
    if (chunks.length > 0) await tx.knowledgeChunk.createMany({ data: chunks.map((c) => ({ ...c, documentId: id, collectionId })) });
    await writeChunkVectors(tx, store, { documentId: id, chunks });
    await tx.knowledgeDocument.update({
      where: { id },
      data: {
        ...meta,
        sortName: sortNameOf(meta.name),
        title: meta.title ?? null,
        pageCount: meta.pageCount ?? null,
        content: Buffer.from(content),
        sourceMtime,
        status: error ? "failed" : "ready",
        error: error ?? null,
        chunkCount: chunks.length,
      },
    });
  });
}

export async function touchSourceFile({ id, sourceMtime }: { id: string; sourceMtime: Date }): Promise<void> {
  await db.knowledgeDocument.update({ where: { id }, data: { sourceMtime } });
}

/** A chunk of one of `collectionIds` with its document's name and title: a knowledge source read by an engine. */
export async function getChunkInCollections({ id, collectionIds }: { id: string; collectionIds: string[] }) {
  return db.knowledgeChunk.findFirst({
    where: { id, collectionId: { in: collectionIds } },
    select: { id: true, text: true, page: true, section: true, documentId: true, collectionId: true, document: { select: { name: true, title: true } } },
  });
}
