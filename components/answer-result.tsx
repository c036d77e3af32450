// The final answer with its references; each reference shows its exact quote on hover (and focus).
// The answer's `[^n]` citation markers (lib/answer/citations.ts) show as footnote links to the n-th
// reference below, named for the screen reader by the source they cite.
import type { ReactNode } from "react";
import type { FinalAnswer } from "@/lib/answer/events";

const MARKER = /\[\^(\d+)\]/g;
const referenceId = (n: number) => `answer-ref-${n}`;

/** The answer text with each `[^n]` of an existing reference as a superscript link to it. */
function withFootnotes(answer: string, references: FinalAnswer["references"]): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of answer.matchAll(MARKER)) {
    const n = Number(m[1]);
    const reference = references[n - 1];
    if (!reference) continue;
    if (m.index > last) parts.push(answer.slice(last, m.index));
    parts.push(
      <sup key={`${m.index}-${n}`} className="ml-px">
        <a href={`#${referenceId(n)}`} className="text-accent no-underline hover:underline focus:underline" aria-label={`Source ${n}: ${reference.title || reference.url}`} data-testid="answer-citation">
          [{n}]
        </a>
      </sup>,
    );
    last = m.index + m[0].length;
  }
  parts.push(answer.slice(last));
  return parts;
}

export function AnswerResult({ final }: { final: FinalAnswer }) {
  return (
    <section className="rounded-xl border border-border bg-surface p-4" data-testid="answer-result">
      <h2 className="text-sm font-semibold text-muted">Answer</h2>
      <p className="mt-1 whitespace-pre-wrap text-[15px]" data-testid="answer-text">
        {withFootnotes(final.answer, final.references)}
      </p>
      {final.references.length > 0 ? (
        <>
          <h3 className="mt-4 text-sm font-semibold text-muted">References</h3>
          <ol className="mt-1 space-y-1 text-sm">
            {final.references.map((r, i) => (
              // Focusable, so that following a citation link takes the reader (and the focus) to it.
              <li key={`${r.url}-${i}`} id={referenceId(i + 1)} tabIndex={-1} className="group relative rounded outline-none target:bg-accent/10 focus-visible:ring-2 focus-visible:ring-accent" data-testid="answer-reference">
                <a href={r.url} target="_blank" rel="noreferrer noopener" className="text-accent underline-offset-2 hover:underline focus:underline" title={r.exactQuote}>
                  [{i + 1}] {r.title}
                </a>
                <blockquote
                  data-testid="answer-reference-quote"
                  className="pointer-events-none invisible absolute left-0 top-full z-10 mt-1 max-w-lg rounded-lg border border-border bg-bg p-2 text-[13px] italic shadow-lg group-focus-within:visible group-hover:visible"
                >
                  “{r.exactQuote}”
                </blockquote>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      <p className="mt-4 text-xs text-muted" data-testid="answer-usage">
        {final.usage.totalTokens.toLocaleString()} of {final.usage.budget.toLocaleString()} tokens · {final.steps} steps · read {final.readURLs.length} pages
        {final.beastMode ? ` · final answer forced (${final.beastMode})` : ""}
      </p>
    </section>
  );
}
