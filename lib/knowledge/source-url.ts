// A knowledge-base passage as a source URL, so that engines store, analyse and cite it exactly like a
// web page (citations are http(s) URLs, numbered by URL). The host is under .invalid (RFC 2606): the
// URL can never be fetched from the network, and the app turns it into its own document view
// (appPathOfSource) with the page and the passage to highlight.
import { parseAnalysisSourceUrl, queryAnchor } from "../exports/query-links";

export const KNOWLEDGE_HOST = "knowledge.quarry.invalid";

export interface KnowledgeSourceRef {
  collectionId: string;
  documentId: string;
  chunkId: string;
  page: number | null;
  section: string | null;
}

export function knowledgeSourceUrl(ref: KnowledgeSourceRef): string {
  const url = new URL(`https://${KNOWLEDGE_HOST}/${encodeURIComponent(ref.collectionId)}/${encodeURIComponent(ref.documentId)}`);
  url.searchParams.set("chunk", ref.chunkId);
  if (ref.page !== null) url.searchParams.set("page", String(ref.page));
  if (ref.section) url.searchParams.set("section", ref.section);
  return url.toString();
}

export function parseKnowledgeSourceUrl(raw: string): KnowledgeSourceRef | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.hostname !== KNOWLEDGE_HOST) return null;
  const [collectionId, documentId, ...rest] = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const chunkId = url.searchParams.get("chunk");
  if (!collectionId || !documentId || rest.length > 0 || !chunkId) return null;
  const page = Number(url.searchParams.get("page"));
  return { collectionId, documentId, chunkId, page: Number.isInteger(page) && page > 0 ? page : null, section: url.searchParams.get("section") };
}

/** The in-app document view for a source URL (null for a web URL). */
export function appPathOfSource(raw: string): string | null {
  const ref = parseKnowledgeSourceUrl(raw);
  if (!ref) return null;
  const query = new URLSearchParams({ chunk: ref.chunkId, ...(ref.page !== null ? { page: String(ref.page) } : {}) });
  return `/collections/${encodeURIComponent(ref.collectionId)}/documents/${encodeURIComponent(ref.documentId)}?${query}`;
}

/** How a citation names the place: "report.pdf, p. 3" or "notes.md, Methods › Sampling". */
export function sourceTitle(documentName: string, documentTitle: string | null, ref: Pick<KnowledgeSourceRef, "page" | "section">): string {
  const name = documentTitle ? `${documentTitle} (${documentName})` : documentName;
  if (ref.page !== null) return `${name}, p. ${ref.page}`;
  return ref.section ? `${name}, ${ref.section}` : name;
}

/**
 * Where a link to a source goes in the browser: the document view for a knowledge source, the query's cell
 * on its conversation page for an analysis query (a write-up cites it), else the URL itself.
 */
export function linkTarget(url: string): string {
  const query = parseAnalysisSourceUrl(url);
  return query ? `#${queryAnchor(query.taskId, query.queryId)}` : (appPathOfSource(url) ?? url);
}
