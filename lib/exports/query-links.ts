// An analysis's output cites its queries as "[q1]" or "[q1, q3]" (lib/deep-research/agents/analysis.ts):
// each id becomes a link to that query's place — its cell on the conversation page, its table and
// figure in an export. Ids of queries that did not run stay as written, and so does a bracket already
// a link ("[q1](…)") or inside code. Pure: the page's bundle imports it too.

const CITE = /\[((?:q\d+)(?:\s*[,;]\s*q\d+)*)\](?!\()/gi;

export function linkQueryCitations(markdown: string, queryIds: ReadonlySet<string>, hrefOf: (queryId: string) => string): string {
  // Fenced code blocks and inline code spans keep their text.
  return markdown
    .split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/g)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(CITE, (whole, list: string) => {
            const ids = list.split(/\s*[,;]\s*/).map((id) => id.toLowerCase());
            if (!ids.every((id) => queryIds.has(id))) return whole;
            return `\\[${ids.map((id) => `[${id}](${hrefOf(id)})`).join(", ")}\\]`;
          }),
    )
    .join("");
}

/** The anchor of a query's place (its SQL, table and figure): `query-ana-1-1-q1`, its cell's id on the conversation page and its anchor in an export. */
export const queryAnchor = (taskId: string, queryId: string) => `query-${taskId}-${queryId}`.replace(/[^\w-]/g, "-");

/**
 * An analysis query as a source URL, so that a Deep Research write-up cites it exactly as it cites a page
 * (citations are http(s) URLs, numbered by URL, as a knowledge-base passage's are: lib/knowledge/source-url.ts).
 * The host is under .invalid (RFC 2606): never fetched; the conversation page links it to the query's cell.
 */
export const ANALYSIS_HOST = "analysis.quarry.invalid";

export const analysisSourceUrl = (taskId: string, queryId: string) => `https://${ANALYSIS_HOST}/${encodeURIComponent(taskId)}/${encodeURIComponent(queryId)}`;

/** The task and query an analysis source URL names, or null for any other URL. */
export function parseAnalysisSourceUrl(raw: string): { taskId: string; queryId: string } | null {
  const m = /^https:\/\/analysis\.quarry\.invalid\/([^/?#]+)\/([^/?#]+)$/.exec(raw.trim());
  return m ? { taskId: decodeURIComponent(m[1]), queryId: decodeURIComponent(m[2]) } : null;
}
