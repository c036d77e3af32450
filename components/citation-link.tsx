"use client";
// A citation in the report: a real link to the source, and on hover, focus or click a card with
// the snippets that were extracted from that URL.
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { linkTarget } from "@/lib/knowledge/source-url";
import { createPortal } from "react-dom";
import type { LiveItemView } from "@/lib/types";
import { hostname } from "@/lib/client/format";
import { Icon } from "./icons";

export interface CitationSource {
  url: string;
  title: string | null;
  /** Null while the text is being fetched (an ended research's snapshot leaves it out). */
  items: LiveItemView[] | null;
}

const WIDTH = 360;

/** `number`: the citation's number in the report's source list (a link to it is in the card). */
/** `onOpen`: the card was opened (the report fetches the snippets' text then, if it has not yet). */
export function CitationLink({ href, source, number, onOpen, children }: { href: string; source: CitationSource; number?: number; onOpen?: () => void; children: ReactNode }) {
  const anchor = useRef<HTMLAnchorElement>(null);
  const card = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<false | "hover" | "pinned">(false);
  const [pos, setPos] = useState<React.CSSProperties>({});
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const id = useId();

  const clear = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  const later = (fn: () => void, ms: number) => {
    clear();
    timer.current = setTimeout(fn, ms);
  };

  const place = useCallback(() => {
    const a = anchor.current;
    if (!a) return;
    const rect = a.getBoundingClientRect();
    const width = Math.min(WIDTH, window.innerWidth - 16);
    const left = Math.min(Math.max(8, rect.left), window.innerWidth - width - 8);
    const below = window.innerHeight - rect.bottom;
    setPos(below > 260 || below > rect.top ? { top: rect.bottom + 6, left, width } : { bottom: window.innerHeight - rect.top + 6, left, width });
  }, []);

  useLayoutEffect(() => {
    if (open) place();
  }, [open, place]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        anchor.current?.focus();
      }
    };
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!anchor.current?.contains(t) && !card.current?.contains(t)) setOpen(false);
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("pointerdown", onDown);
    window.addEventListener("scroll", place, true);
    window.addEventListener("resize", place);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("pointerdown", onDown);
      window.removeEventListener("scroll", place, true);
      window.removeEventListener("resize", place);
    };
  }, [open, place]);

  useEffect(() => clear, []);

  useEffect(() => {
    if (open) onOpen?.();
  }, [open, onOpen]);

  const items = source.items ?? [];
  const shown = items.slice(0, 6);
  return (
    <>
      <a
        ref={anchor}
        href={linkTarget(href)}
        target="_blank"
        rel="noreferrer noopener"
        data-testid="citation"
        data-url={source.url}
        data-n={number}
        aria-describedby={open ? id : undefined}
        aria-expanded={!!open}
        onMouseEnter={() => later(() => setOpen((o) => o || "hover"), 150)}
        onMouseLeave={() => later(() => setOpen((o) => (o === "hover" ? false : o)), 250)}
        onFocus={() => setOpen((o) => o || "hover")}
        onBlur={(e) => {
          if (!card.current?.contains(e.relatedTarget as Node)) setOpen((o) => (o === "hover" ? false : o));
        }}
        onClick={(e) => {
          // A plain click shows the snippets; the card links to the page. Modified clicks open it.
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          clear();
          setOpen((o) => (o === "pinned" ? false : "pinned"));
        }}
        className={`rounded-sm bg-accent-soft/60 px-0.5 hover:bg-accent-soft ${number ? "text-[0.8em] font-medium tabular-nums no-underline" : ""}`}
      >
        {children}
      </a>
      {open
        ? createPortal(
            <div
              ref={card}
              id={id}
              role="dialog"
              aria-label={`Snippets from ${source.title ?? hostname(source.url)}`}
              data-testid="citation-card"
              onMouseEnter={clear}
              onMouseLeave={() => later(() => setOpen((o) => (o === "hover" ? false : o)), 250)}
              style={{ position: "fixed", ...pos }}
              className="z-50 max-h-[min(24rem,70dvh)] overflow-y-auto rounded-xl border border-border bg-surface p-3.5 text-left text-sm text-fg shadow-xl"
            >
              <p className="truncate font-semibold leading-snug" title={source.title ?? undefined}>
                {number ? <span className="mr-1 tabular-nums text-muted">[{number}]</span> : null}
                {source.title || hostname(source.url)}
              </p>
              <a href={linkTarget(source.url)} target="_blank" rel="noreferrer noopener" data-testid="citation-open" className="mt-0.5 inline-flex max-w-full items-center gap-1 text-xs text-accent hover:underline">
                <span className="truncate">{hostname(source.url)}</span> <Icon name="external" className="size-3 shrink-0" />
              </a>
              {source.items === null ? (
                <p className="mt-2.5 border-t border-border pt-2.5 text-[13px] text-muted">Loading snippets…</p>
              ) : shown.length > 0 ? (
                <ul className="mt-2.5 space-y-2 border-t border-border pt-2.5">
                  {shown.map((it, i) => (
                    <li key={i} data-testid="citation-snippet" className="flex gap-2 text-[13px] leading-relaxed text-muted">
                      <span aria-hidden="true" className="mt-2 size-1 shrink-0 rounded-full bg-accent" />
                      <span className="min-w-0 break-words">{it.content}</span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="mt-2.5 border-t border-border pt-2.5 text-[13px] text-muted">No snippets were extracted from this page.</p>
              )}
              {items.length > shown.length ? <p className="mt-2 text-xs text-subtle">+{items.length - shown.length} more in Sources</p> : null}
              {number ? (
                <a href={`#source-${number}`} data-testid="citation-to-list" onClick={() => setOpen(false)} className="mt-2 inline-block text-xs text-accent hover:underline">
                  Source {number} in the list
                </a>
              ) : null}
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
