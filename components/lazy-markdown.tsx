"use client";
// The Markdown renderer (react-markdown, remark-gfm: ~45 KB gzipped) for text that changes while it
// is shown (a report being written, a failed research's error output), loaded only when one is
// shown. Until it arrives the text is shown as it is. A finished report is rendered on the server.
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
