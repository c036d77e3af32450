// A tree research's progress as an AI SDK UI message stream (GET /api/research/:id/stream): the
// snapshot with its links, then its typed data parts (lib/types.ts), until the research ends.
import type { UIMessageStreamWriter } from "ai";
import { isTerminalStatus, type TreeRunEvent, type TreeSnapshot } from "../explore/events";
import type { LiveWebsiteView, ResearchUIMessage, WebsiteView } from "../types";
import { withResearchLinks } from "./research-links";
import { runStream } from "./run-stream";

/** The stream's website (LiveWebsiteView): no `content`; the items' text unless `withText` is false. */
function live({ content: _content, items, ...rest }: WebsiteView, withText = true): LiveWebsiteView {
  return { ...rest, item_count: items.length, items: withText ? items.map((i) => ({ content: i.content })) : null };
}

function writePart(writer: UIMessageStreamWriter<ResearchUIMessage>, e: TreeRunEvent): void {
  const meta = { seq: e.seq, at: e.at };
  switch (e.type) {
    case "query.created":
    case "query.status":
      return writer.write({ type: "data-query", id: e.data.query_id, data: { ...e.data, ...meta } });
    case "page.status":
    case "item.extracted":
      return writer.write({ type: "data-website", id: e.data.id, data: { ...live(e.data), ...meta } });
    case "report.delta":
      return writer.write({ type: "data-report-delta", data: { ...e.data, ...meta }, transient: true });
    case "report.done":
      return writer.write({ type: "data-report", id: "report", data: { ...e.data, ...meta } });
    case "run.status":
      return writer.write({ type: "data-run", id: "run", data: { ...e.data, ...meta } });
  }
}

export function researchStream({ id, userId, signal }: { id: string; userId: string | null; signal: AbortSignal }) {
  return runStream<ResearchUIMessage, TreeSnapshot, TreeRunEvent>({
    kind: "tree",
    subjectId: id,
    userId,
    signal,
    notFound: { code: "not_found:research", message: "Research not found" },
    writeSnapshot: (writer, { research, report_draft }, seq) => {
      // An ended research's snapshot is all its stream sends: the items' text waits until a view needs it.
      const withText = !isTerminalStatus(research.status);
      const view = { ...withResearchLinks(research), successful_scraped_websites: research.successful_scraped_websites.map((w) => live(w, withText)) };
      writer.write({ type: "data-snapshot", id: "snapshot", data: { seq, research: view, report_draft } });
    },
    writeEvent: writePart,
    failureMessage: "The research stream failed",
  });
}
