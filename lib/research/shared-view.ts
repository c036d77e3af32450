// The read-only view behind a share link: the report, its sources and its query tree — nothing
// else of the owner's. Internal ids are replaced by positional refs (q1, q2 …) that only link the
// tree together; errors, token counts and API links are left out.
import { loadResearchGraph } from "../db/research";
import { verificationOfResearch } from "../db/verifications";
import { toVerificationView, type VerificationView } from "../verification/view";
import { toResearchView } from "../explore/public-shape";
import type { ResearchStatus, ResearchData, QueryStatus } from "../types";

export interface SharedQuery {
  ref: string;
  parentRef: string | null;
  depth: number;
  text: string;
  objective: string;
  status: QueryStatus;
}

export interface SharedSource {
  queryRef: string;
  url: string;
  title: string | null;
  learnings: string[];
}

export interface SharedResearch {
  prompt: string;
  status: ResearchStatus;
  report: string | null;
  createdAt: string;
  completedAt: string | null;
  queries: SharedQuery[];
  sources: SharedSource[];
  /** The report's citation check (read-only marks on the shared page), when it has one. */
  verification: VerificationView | null;
}

export function toSharedResearch(view: ResearchData): SharedResearch {
  const ordered = [...view.serp_queries].sort((a, b) => a.depth - b.depth || a.position - b.position || a.created_at.localeCompare(b.created_at));
  const refs = new Map(ordered.map((q, i) => [q.query_id, `q${i + 1}`]));
  return {
    prompt: view.initial_prompt,
    status: view.status,
    report: view.report,
    createdAt: view.created_at,
    completedAt: view.completed_at,
    verification: null,
    queries: ordered.map((q) => ({
      ref: refs.get(q.query_id)!,
      parentRef: q.parent_query_id ? (refs.get(q.parent_query_id) ?? null) : null,
      depth: q.depth,
      text: q.text,
      objective: q.objective,
      status: q.status,
    })),
    sources: view.successful_scraped_websites
      .filter((w) => refs.has(w.query_id))
      .map((w) => ({
        queryRef: refs.get(w.query_id)!,
        url: w.url,
        title: w.title,
        learnings: w.items.map((item) => item.content),
      })),
  };
}

/** The shared view of a research, loaded by id without an owner scope (the share link authorises it). */
export async function loadSharedResearch(id: string): Promise<SharedResearch | null> {
  const graph = await loadResearchGraph({ id });
  if (!graph) return null;
  const row = await verificationOfResearch({ researchId: id });
  return { ...toSharedResearch(toResearchView(graph)), verification: row ? toVerificationView(row) : null };
}
