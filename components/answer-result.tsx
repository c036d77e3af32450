// The final answer with its references; each reference shows its exact quote on hover (and focus).
import type { FinalAnswer } from "@/lib/answer/events";

export function AnswerResult({ final }: { final: FinalAnswer }) {
  return (
    <section className="rounded-xl border border-border bg-surface p-4" data-testid="answer-result">
      <h2 className="text-sm font-semibold text-muted">Answer</h2>
      <p className="mt-1 whitespace-pre-wrap text-[15px]" data-testid="answer-text">
        {final.answer}
      </p>
      {final.references.length > 0 ? (
        <>
          <h3 className="mt-4 text-sm font-semibold text-muted">References</h3>
          <ol className="mt-1 space-y-1 text-sm">
            {final.references.map((r, i) => (
              <li key={`${r.url}-${i}`} className="group relative" data-testid="answer-reference">
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
