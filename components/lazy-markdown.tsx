"use client";
// The Markdown renderer (react-markdown, remark-gfm: ~45 KB gzipped) for views in the research page's
// frame (a failed research's error output), loaded only when one is shown, so that the tree and
// sources tabs never download it. Until it arrives the text is shown as it is. (The report tab is its
// own route: it imports the renderer directly, in its own chunk.)
import { lazy, Suspense, type ComponentProps } from "react";
import type { Markdown as MarkdownComponent } from "./markdown";

type Props = ComponentProps<typeof MarkdownComponent>;

const Markdown = lazy(() => import("./markdown").then((m) => ({ default: m.Markdown })));

export function LazyMarkdown(props: Props) {
  return (
    <Suspense fallback={<div className={`${props.className ?? "prose-report"} whitespace-pre-wrap`}>{props.children}</div>}>
      <Markdown {...props} />
    </Suspense>
  );
}
