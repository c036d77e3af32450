"use client";
// The timeline: the user's messages and each iteration's reply, with its level; the reply being
// written shown as it streams.
import { memo, useDeferredValue, useRef, useState } from "react";
import { VerificationSummary } from "../report-verification";
import type { VerificationView } from "@/lib/verification/view";
import { Markdown } from "../markdown";
import { renderQueryLink } from "./notebook";
import type { DrDraft, DrMessage } from "@/lib/client/deep-research-state";
import { formatDateTime } from "@/lib/client/format";

/** The citation check of one reply (the write-up), by the reply's id. */
export interface ReplyVerification {
  messageId: string;
  view: VerificationView;
}

/** A reply's text; the verified write-up with its support rate and its flagged claims marked. */
function ReplyText({ content, verification }: { content: string; verification: VerificationView | null }) {
  const article = useRef<HTMLDivElement>(null);
  return (
    <>
      {verification ? <div className="mt-2"><VerificationSummary data={verification} article={article} noun="write-up" /></div> : null}
      <div ref={article} data-testid={verification ? "dr-verified-reply" : undefined}>
        {/* A write-up cites its analyses' queries too (analysisSourceUrl): such a link shows the query's cell. */}
        <Markdown className="prose-report mt-1 text-sm" renderLink={renderQueryLink}>{content}</Markdown>
      </div>
    </>
  );
}

const Entry = memo(function Entry({ m, reply, verification }: { m: DrMessage; reply: number; verification: VerificationView | null }) {
  const user = m.role === "user";
  return (
    <li data-testid="dr-message" data-role={m.role} data-status={m.status} className={`rounded-xl border px-4 py-3 [contain-intrinsic-size:auto_5.5rem] [content-visibility:auto] ${user ? "border-accent/30 bg-accent/5" : "border-border bg-surface"}`}>
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
        <span className="font-medium text-fg">{user ? "You" : `Reply ${reply}`}</span>
        {!user ? <span>iteration {m.iteration}</span> : null}
        {!user ? (m.level > 0 ? <span>level {m.level}</span> : null) : m.researchMode ? <span>{m.researchMode}</span> : null}
        <time dateTime={m.createdAt} className="ml-auto" suppressHydrationWarning>{formatDateTime(m.createdAt)}</time>
      </div>
      {user ? <p className="mt-1 whitespace-pre-wrap break-words text-sm">{m.content}</p> : <ReplyText content={m.content} verification={verification} />}
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

/** The reply being written: its text so far, not yet saved nor checked. */
function DraftEntry({ draft, reply }: { draft: DrDraft; reply: number }) {
  // A long draft's Markdown is rendered again for each piece: behind the page's other updates.
  const text = useDeferredValue(draft.text);
  return (
    <li data-testid="dr-draft" aria-busy="true" className="rounded-xl border border-dashed border-border bg-surface px-4 py-3">
      <div className="flex items-center gap-2 text-xs text-muted">
        <span className="font-medium text-fg">Reply {reply}</span>
        <span>{draft.note ? "writing again…" : "writing…"}</span>
      </div>
      {draft.note ? (
        <p className="mt-1 text-xs text-muted" data-testid="dr-draft-note">
          {draft.note}
        </p>
      ) : null}
      <Markdown className="prose-report mt-1 text-sm">{text}</Markdown>
    </li>
  );
}

export const Timeline = memo(function Timeline({ messages, verification = null, draft = null }: { messages: DrMessage[]; verification?: ReplyVerification | null; draft?: DrDraft | null }) {
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
      <ol className="mt-2 grid gap-2">
        {numbered.slice(hidden).map(([m, n]) => <Entry key={m.id} m={m} reply={n} verification={verification?.messageId === m.id ? verification.view : null} />)}
        {draft ? <DraftEntry draft={draft} reply={messages.filter((m) => m.role !== "user").length + 1} /> : null}
      </ol>
    </section>
  );
});
