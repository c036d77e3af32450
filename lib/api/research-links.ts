// The API links of a research: added to its public shape at the HTTP edge, where the paths live.
import type { ResearchData, ResearchLinks, ResearchView } from "../types";

export function researchLinks(id: string): ResearchLinks {
  const base = `/api/research/${id}`;
  return {
    self: base,
    stream: `${base}/stream`,
    report: `${base}/report`,
    error_output: `${base}/error-output`,
    resume: `${base}/resume`,
    write_report: `${base}/write-report`,
    export: `${base}/export`,
    verification: `${base}/verification`,
  };
}

export function withResearchLinks(research: ResearchData): ResearchView {
  return { ...research, links: researchLinks(research.research_id) };
}

/** 202 for a research that is (again) running: its status, its links, and Location of its JSON. */
export function acceptedResearch(started: { research_id: string; run_id: string | null; status: "running" }): Response {
  const links = { ...researchLinks(started.research_id), ...(started.run_id ? { run: `/api/runs/${started.run_id}` } : {}) };
  return Response.json({ ...started, links }, { status: 202, headers: { Location: links.self } });
}
