"use client";
// The error output of a failed research: a link to the Markdown, and an inline view of it.
import { useState } from "react";
import { useResearchText } from "@/hooks/use-research-text";
import { Icon } from "./icons";
import { LazyMarkdown as Markdown } from "./lazy-markdown";

export function ErrorOutput({ href }: { href: string }) {
  const [open, setOpen] = useState(false);
  const text = useResearchText(href, open);
  return (
    <div className="mt-3">
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <a href={href} target="_blank" rel="noreferrer" data-testid="error-output-link" className="inline-flex items-center gap-1 font-medium text-danger underline underline-offset-2">
          Error output <Icon name="external" className="size-3.5" />
        </a>
        <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open} className="font-medium text-muted underline underline-offset-2 hover:text-fg">
          {open ? "Hide details" : "Show details here"}
        </button>
      </div>
      {open ? (
        <div className="mt-3 max-h-96 overflow-auto rounded-lg border border-border bg-surface p-4 text-sm" data-testid="error-output">
          {text.isPending ? <p className="text-muted">Loading…</p> : text.data ? <Markdown>{text.data}</Markdown> : <p className="text-muted">No error output was written.</p>}
        </div>
      ) : null}
    </div>
  );
}
