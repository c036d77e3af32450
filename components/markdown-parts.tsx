// What both Markdown renderers share: heading ids that match extractToc's (lib/client/markdown.ts)
// and links drawn by the caller. `Markdown` (client, for text that changes while it is shown) and
// `StaticMarkdown` (server components: a finished report costs no renderer in the browser) use it.
import { Children, isValidElement, type ReactNode } from "react";
import type { Components } from "react-markdown";
import { linkTarget } from "@/lib/knowledge/source-url";

export type RenderLink = (props: { href?: string; children: ReactNode }) => ReactNode;

function textOf(node: ReactNode): string {
  if (node == null || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return Children.toArray(node).map(textOf).join("");
}

/** Heading and link renderers; `slug` gives each heading its id in document order. */
export function markdownComponents(slug: () => (text: string) => string, renderLink?: RenderLink): Components {
  const heading = (Tag: "h1" | "h2" | "h3" | "h4") =>
    function Heading({ children }: { children?: ReactNode }) {
      return <Tag id={slug()(textOf(children))}>{children}</Tag>;
    };
  return {
    h1: heading("h1"),
    h2: heading("h2"),
    h3: heading("h3"),
    h4: heading("h4"),
    a: ({ href, children }) =>
      renderLink ? (
        <>{renderLink({ href, children })}</>
      ) : (
        <a href={href ? linkTarget(href) : href} target="_blank" rel="noreferrer noopener">
          {children}
        </a>
      ),
  };
}
