"use client";
// The timeline: the user's messages and each iteration's reply, with its level.
import { memo, useState } from "react";
import { Markdown } from "../markdown";
import type { DrMessage } from "@/lib/client/deep-research-state";
import { formatDateTime } from "@/lib/client/format";

const Entry = memo(function Entry({ m, reply }: { m: DrMessage; reply: number }) {
  const user = m.role === "user";
  return (
    <li data-testid="dr-message" data-role={m.role} data-status={m.status} className={`rounded-xl border px-4 py-3 [contain-intrinsic-size:auto_5.5rem] [content-visibility:auto] ${user ? "border-accent/30 bg-accent/5" : "border-border bg-surface"}`}>
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
        <span className="font-medium text-fg">{user ? "You" : `Reply ${reply}`}</span>
        {!user ? <span>iteration {m.iteration}</span> : null}
        {!user ? (m.level > 0 ? <span>level {m.level}</span> : null) : m.researchMode ? <span>{m.researchMode}</span> : null}
        <time dateTime={m.createdAt} className="ml-auto" suppressHydrationWarning>{formatDateTime(m.createdAt)}</time>
      </div>
      {user ? <p className="mt-1 whitespace-pre-wrap break-words text-sm">{m.content}</p> : <Markdown className="prose-report mt-1 text-sm">{m.content}</Markdown>}
      {m.error ? <p className="mt-1 text-sm text-danger">{m.error}</p> : null}
    </li>
  );
});

// Each start counts its iterations from 1, so replies are numbered across the conversation.
function withReplyNumbers(messages: DrMessage[]): [DrMessage, number][] {
  let n = 0;
  return messages.map((m) => [m, m.role === "user" ? 0 : ++n]);
}

// A long conversation shows its latest entries; the earlier ones (each a Markdown render) on demand.
const RECENT = 6;

export const Timeline = memo(function Timeline({ messages }: { messages: DrMessage[] }) {
  const [all, setAll] = useState(false);
  const numbered = withReplyNumbers(messages);
  const hidden = all ? 0 : Math.max(0, numbered.length - RECENT);
  return (
    <section aria-labelledby="dr-tl-h" data-testid="dr-timeline">
      <h2 id="dr-tl-h" className="text-sm font-semibold uppercase tracking-wide text-subtle">Timeline</h2>
      {hidden > 0 ? (
        <button type="button" data-testid="dr-show-earlier" className="mt-2 text-sm text-accent hover:underline" onClick={() => setAll(true)}>
          Show {hidden} earlier {hidden === 1 ? "entry" : "entries"}
        </button>
      ) : null}
      <ol className="mt-2 grid gap-2">{numbered.slice(hidden).map(([m, n]) => <Entry key={m.id} m={m} reply={n} />)}</ol>
    </section>
  );
});
