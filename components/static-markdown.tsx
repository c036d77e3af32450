// Markdown rendered where it is fixed, in a server component (a finished report, a shared page):
// the browser gets its HTML and none of the renderer. Links may be client components (citations).
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { createSlugger } from "@/lib/client/markdown";
import { markdownComponents, type RenderLink } from "./markdown-parts";

export function StaticMarkdown({ children, renderLink, className = "prose-report" }: { children: string; renderLink?: RenderLink; className?: string }) {
  const slug = createSlugger();
  return (
    <div className={className}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={markdownComponents(() => slug, renderLink)}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
