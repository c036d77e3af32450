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
