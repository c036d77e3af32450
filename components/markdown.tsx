"use client";
// Markdown (GFM: tables, lists, autolinks) with heading ids that match extractToc's.
import { Children, isValidElement, useMemo, useRef, type ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { createSlugger } from "@/lib/client/markdown";

function textOf(node: ReactNode): string {
  if (node == null || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return Children.toArray(node).map(textOf).join("");
}

interface Props {
  children: string;
  /** Renders links (e.g. citations with their snippets); defaults to a plain external link. */
  renderLink?: (props: { href?: string; children: ReactNode }) => ReactNode;
  className?: string;
}

export function Markdown({ children, renderLink, className = "prose-report" }: Props) {
  // A fresh slugger per render (ids in document order); the components stay the same objects
  // across renders so that stateful children (an open citation card) are not remounted.
  const slugger = useRef(createSlugger());
  slugger.current = createSlugger();
  const components = useMemo<Components>(() => {
    const heading = (Tag: "h1" | "h2" | "h3" | "h4") =>
      function Heading({ children: c }: { children?: ReactNode }) {
        return <Tag id={slugger.current(textOf(c))}>{c}</Tag>;
      };
    return {
      h1: heading("h1"),
      h2: heading("h2"),
      h3: heading("h3"),
      h4: heading("h4"),
      a: ({ href, children: c }) =>
        renderLink ? (
          <>{renderLink({ href, children: c })}</>
        ) : (
          <a href={href} target="_blank" rel="noreferrer noopener">
            {c}
          </a>
        ),
    };
  }, [renderLink]);
  return (
    <div className={className}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
