"use client";
// Markdown (GFM: tables, lists, autolinks) for text that changes while it is shown (a report being
// written), with heading ids that match extractToc's. Fixed text is rendered on the server instead
// (StaticMarkdown).
import { useMemo, useRef } from "react";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { createSlugger } from "@/lib/client/markdown";
import { markdownComponents, type RenderLink } from "./markdown-parts";

interface Props {
  children: string;
  /** Renders links (e.g. citations with their snippets); defaults to a plain external link. */
  renderLink?: RenderLink;
  className?: string;
}

export function Markdown({ children, renderLink, className = "prose-report" }: Props) {
  // A fresh slugger per render (ids in document order); the components stay the same objects
  // across renders so that stateful children (an open citation card) are not remounted.
  const slugger = useRef(createSlugger());
  slugger.current = createSlugger();
  const components = useMemo(() => markdownComponents(() => slugger.current, renderLink), [renderLink]);
  return (
    <div className={className}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
