// The browser's calls to the collections API. Uploads go through XMLHttpRequest: fetch cannot report
// upload progress, and the collections page shows it per file.
import type { ChunkHit } from "@/lib/db/knowledge-search";
import { ApiError, redirectToSignIn } from "./api";

export interface CollectionSummary {
  id: string;
  name: string;
  shared: boolean;
  documentCount: number;
}

export interface DocumentSummary {
  id: string;
  name: string;
  title: string | null;
  format: string;
  bytes: number;
  status: string;
  error: string | null;
  pageCount: number | null;
  chunkCount: number;
  /** The encoding a text file was read in; null for PDF and DOCX. */
  encoding?: string | null;
  createdAt?: string;
}

export type DocumentSortKey = "name" | "type" | "size" | "added" | "status";

export interface DocumentListParams {
  page: number;
  limit: number;
  sort: DocumentSortKey;
  order: "asc" | "desc";
  type?: string;
  status?: string;
  name?: string;
}

export interface DocumentPage {
  documents: (DocumentSummary & { createdAt: string })[];
  total: number;
  page: number;
  limit: number;
  pages: number;
  sort: DocumentSortKey;
  order: "asc" | "desc";
  counts: { status: Record<string, number>; type: Record<string, number> };
}

/** A ranked passage of a collection search, as GET /api/collections/:id/search answers it. */
export type PassageHit = ChunkHit;

/** The list API's query string for `params` (empty filters left out). */
export function documentListQuery(params: DocumentListParams): string {
  const q = new URLSearchParams({ page: String(params.page), limit: String(params.limit), sort: params.sort, order: params.order });
  if (params.type) q.set("type", params.type);
  if (params.status) q.set("status", params.status);
  if (params.name) q.set("name", params.name);
  return q.toString();
}

export interface Sources {
  web: boolean;
  collections: string[];
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(path, { ...init, headers: { ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers }, cache: "no-store" });
  if (res.status === 401) redirectToSignIn();
  if (res.status === 204) return undefined as T;
  const body = (await res.json().catch(() => ({}))) as { error?: string; code?: string; field?: string };
  if (!res.ok) throw new ApiError(body.error ?? `Request failed (${res.status})`, res.status, body.code ?? `http:${res.status}`, body.field);
  return body as T;
}

const base = (id: string) => `/api/collections/${encodeURIComponent(id)}`;

export const knowledgeApi = {
  list: async () => (await call<{ collections: CollectionSummary[] }>("/api/collections")).collections,
  get: async (id: string) => (await call<{ collection: CollectionSummary & { documents: DocumentSummary[] } }>(base(id))).collection,
  create: async (name: string) => (await call<{ collection: CollectionSummary }>("/api/collections", { method: "POST", body: JSON.stringify({ name }) })).collection,
  rename: async (id: string, name: string) => (await call<{ collection: CollectionSummary }>(base(id), { method: "PATCH", body: JSON.stringify({ name }) })).collection,
  remove: (id: string) => call<void>(base(id), { method: "DELETE" }),
  reindex: (id: string) => call<{ documents: DocumentSummary[] }>(`${base(id)}/reindex`, { method: "POST" }),
  documents: (id: string, params: DocumentListParams) => call<DocumentPage>(`${base(id)}/documents?${documentListQuery(params)}`),
  search: async (id: string, q: string, limit = 20) =>
    (await call<{ results: PassageHit[] }>(`${base(id)}/search?${new URLSearchParams({ q, limit: String(limit) })}`)).results,
  removeDocument: (id: string, documentId: string) => call<void>(`${base(id)}/documents/${encodeURIComponent(documentId)}`, { method: "DELETE" }),
  /** One file; `onProgress` gets the share of the file sent (0–1). Rejects with the server's message (naming the file). */
  upload: (id: string, file: File, onProgress: (share: number) => void): Promise<DocumentSummary> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `${base(id)}/documents`);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onerror = () => reject(new ApiError("Could not reach the server.", 0, "network:client"));
      xhr.onload = () => {
        let body: { document?: DocumentSummary; error?: string; code?: string } = {};
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // a proxy's HTML error page
        }
        if (xhr.status === 201 && body.document) resolve(body.document);
        else reject(new ApiError(body.error ?? `Upload failed (${xhr.status})`, xhr.status, body.code ?? `http:${xhr.status}`));
      };
      const form = new FormData();
      form.append("file", file);
      xhr.send(form);
    }),
};
