// A tree research's progress as an AI SDK UI message stream (GET /api/research/:id/stream): first a
// snapshot from the database with the sequence number it is current to, then live events newer than
// it (lib/runs/live.ts), until the research reaches a terminal state.
import { createUIMessageStream, type UIMessageStreamWriter } from "ai";
import { loadResearchGraph, type Owner } from "../db/research";
import { AppError } from "../errors";
import type { ResearchGraph } from "../db/types";
import { followRun } from "../runs/live";
import { treeTopic, type TreeRunEvent } from "./events";
import type { ResearchStatus, ResearchUIMessage } from "../types";
import { reportDraft } from "./engine";
import { toResearchView } from "./public-shape";

const TERMINAL: ResearchStatus[] = ["completed", "failed", "cancelled"];

function writePart(writer: UIMessageStreamWriter<ResearchUIMessage>, e: TreeRunEvent): void {
  const meta = { seq: e.seq, at: e.at };
  switch (e.type) {
    case "query.created":
    case "query.status":
      return writer.write({ type: "data-query", id: e.data.query_id, data: { ...e.data, ...meta } });
    case "page.status":
    case "item.extracted":
      return writer.write({ type: "data-website", id: e.data.id, data: { ...e.data, ...meta } });
    case "report.delta":
      return writer.write({ type: "data-report-delta", data: { ...e.data, ...meta }, transient: true });
    case "report.done":
      return writer.write({ type: "data-report", id: "report", data: { ...e.data, ...meta } });
    case "run.status":
      return writer.write({ type: "data-run", id: "run", data: { ...e.data, ...meta } });
  }
}

/**
 * The research's progress as an AI SDK UI message stream: the snapshot, then live events newer than
 * it, until the research reaches a terminal state. The route makes the HTTP response of it.
 */
export async function researchStream({ id, signal, ...owner }: Owner & { id: string; signal: AbortSignal }) {
  const followed = await followRun<ResearchGraph, TreeRunEvent>(treeTopic(id), () => loadResearchGraph({ id, ...owner }));
  if (!followed) throw new AppError("not_found:research", "Research not found");
  const { seq, snapshot: graph } = followed;
  return createUIMessageStream<ResearchUIMessage>({
    execute: async ({ writer }) => {
      writer.write({ type: "start" });
      writer.write({ type: "data-snapshot", id: "snapshot", data: { seq, research: toResearchView(graph), report_draft: reportDraft(id) } });
      let done = TERMINAL.includes(graph.status as ResearchStatus);
      if (done) followed.stop();
      for await (const e of followed.events(signal)) {
        writePart(writer, e);
        if (e.type === "run.status" && TERMINAL.includes(e.data.status)) {
          done = true;
          followed.stop();
        }
      }
      // A client can tell a finished research from a dropped connection.
      if (done) writer.write({ type: "finish" });
    },
    onError: () => "The research stream failed",
  });
}
