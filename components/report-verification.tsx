"use client";
// The report's citation check in the viewer: the support rate and counts above the report, the
// claims that are not fully supported marked in its text (the CSS Custom Highlight API: no change
// to the rendered DOM), the source's quote on hover, and the same list in words for keyboard and
// screen-reader users.
import { useEffect, useState, type RefObject } from "react";
import { useVerification } from "@/hooks/use-verification";
import { locateSentence, type TextPiece } from "@/lib/client/claim-marks";
import type { ClaimView, VerificationView } from "@/lib/verification/view";

const LABEL: Record<ClaimView["verdict"], string> = { supported: "Supported", partial: "Partly supported", unsupported: "Unsupported", uncited: "No citation", unverified: "Not verified" };
const MARKED = ["partial", "unsupported", "uncited", "unverified"] as const;
// "[3]" in the report viewer, "3" where Markdown renders the link as it is (timeline, shared page).
const CITATION_MARKER = /^\[?\d+\]?$/;

interface Mark {
  range: Range;
  claim: ClaimView;
}

/** The article's text nodes as pieces; citation markers ("[3]") are not part of any sentence. */
function textPieces(root: HTMLElement): { nodes: Text[]; pieces: TextPiece[] } {
  const nodes: Text[] = [];
  const pieces: TextPiece[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n as Text;
    const link = text.parentElement?.closest("a");
    nodes.push(text);
    pieces.push({ text: text.data, skip: Boolean(link && CITATION_MARKER.test(link.textContent?.trim() ?? "")) });
  }
  return { nodes, pieces };
}

function findMarks(root: HTMLElement, claims: ClaimView[]): Mark[] {
  const { nodes, pieces } = textPieces(root);
  const marks: Mark[] = [];
  for (const claim of claims) {
    const at = locateSentence(pieces, claim.sentence);
    if (!at) continue;
    const range = document.createRange();
    range.setStart(nodes[at.start.piece], at.start.offset);
    range.setEnd(nodes[at.end.piece], at.end.offset + 1);
    marks.push({ range, claim });
  }
  return marks;
}

function caretAt(x: number, y: number): { node: Node; offset: number } | null {
  const position = document.caretPositionFromPoint?.(x, y);
  if (position) return { node: position.offsetNode, offset: position.offset };
  const range = (document as Document & { caretRangeFromPoint?: (x: number, y: number) => Range | null }).caretRangeFromPoint?.(x, y);
  return range ? { node: range.startContainer, offset: range.startOffset } : null;
}

/** Marks the flagged claims in `article` and shows a claim's verdict and quote while the pointer is on it. */
function useClaimMarks(article: RefObject<HTMLElement | null>, claims: ClaimView[]) {
  const [hover, setHover] = useState<{ claim: ClaimView; x: number; y: number } | null>(null);
  useEffect(() => {
    const root = article.current;
    if (!root || claims.length === 0 || typeof CSS === "undefined" || !("highlights" in CSS)) return;
    let marks: Mark[] = [];
    const paint = () => {
      marks = findMarks(root, claims);
      for (const verdict of MARKED) {
        CSS.highlights.set(`claim-${verdict}`, new Highlight(...marks.filter((m) => m.claim.verdict === verdict).map((m) => m.range)));
      }
      root.dataset.claimMarks = String(marks.length);
    };
    paint();
    // The report may render after this runs (the browser's renderer loads lazily): mark it again then.
    const observer = new MutationObserver(paint);
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    const move = (e: MouseEvent) => {
      const caret = caretAt(e.clientX, e.clientY);
      const mark = caret ? marks.find((m) => m.range.isPointInRange(caret.node, caret.offset)) : undefined;
      setHover(mark ? { claim: mark.claim, x: e.clientX, y: e.clientY } : null);
    };
    const leave = () => setHover(null);
    root.addEventListener("mousemove", move);
    root.addEventListener("mouseleave", leave);
    return () => {
      observer.disconnect();
      root.removeEventListener("mousemove", move);
      root.removeEventListener("mouseleave", leave);
      for (const verdict of MARKED) CSS.highlights.delete(`claim-${verdict}`);
    };
  }, [article, claims]);
  return hover;
}

export function ReportVerification({ href, article }: { href: string; article: RefObject<HTMLElement | null> }) {
  const { data } = useVerification(href, true);
  return <VerificationSummary data={data ?? null} article={article} />;
}

/**
 * A verification as the viewer shows it (the report's, a Deep Research write-up's, on the owner's page
 * or a shared one): the support rate and counts, the flagged claims marked in `article`, the quote on hover.
 */
export function VerificationSummary({ data, article, noun = "report" }: { data: VerificationView | null; article: RefObject<HTMLElement | null>; noun?: string }) {
  const flagged = data?.status === "done" ? data.claims.filter((c) => c.verdict !== "supported") : [];
  const hover = useClaimMarks(article, flagged);
  if (!data) return null;
  if (data.status !== "done") {
    return (
      <p className="mb-3 text-sm text-muted" data-testid="report-verification" data-status={data.status}>
        {data.status === "failed" ? `The citations could not be verified; the ${noun} is shown as written.` : "Verifying the citations…"}
      </p>
    );
  }
  const c = data.counts;
  const rate = data.support_rate === null ? null : Math.round(data.support_rate * 100);
  return (
    <section className="mb-3 rounded-xl border border-border bg-surface px-4 py-3 text-sm" data-testid="report-verification" data-status="done" data-support-rate={rate ?? ""}>
      <p>
        <span className="font-medium">Support rate {rate === null ? "n/a" : `${rate}%`}</span>{" "}
        <span className="text-muted">
          — of {c.claims} claims checked against their sources’ text: {c.supported} supported, {c.partial} partly supported, {c.unsupported} unsupported, {c.uncited} without a citation
          {c.unverified > 0 ? `, ${c.unverified} not verified (no usable verdict; kept as written)` : ""}
          {data.repair.removed + data.repair.rewritten > 0 ? ` (the check removed ${data.repair.removed} and rewrote ${data.repair.rewritten} unsupported sentences)` : ""}.
        </span>
      </p>
      {c.unverified * 2 > c.claims ? (
        <p className="mt-1 text-amber-700 dark:text-amber-400" data-testid="verification-unverified-warning">
          Most claims could not be verified: the verifier gave no usable verdict for {c.unverified} of {c.claims}. They are kept as written and marked.
        </p>
      ) : null}
      {flagged.length > 0 ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-muted">Marked in the {noun}: {flagged.length} claim{flagged.length === 1 ? "" : "s"} not fully supported</summary>
          <ul className="mt-2 flex flex-col gap-2">
            {flagged.map((claim, i) => (
              <li key={i} data-testid="flagged-claim" data-verdict={claim.verdict}>
                <span className={`claim-chip claim-chip-${claim.verdict}`}>{LABEL[claim.verdict]}</span> {claim.sentence}
                {claim.quote ? <span className="block text-muted">Source says: “{claim.quote}”</span> : claim.note ? <span className="block text-muted">{claim.note}</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {hover ? (
        <div
          role="tooltip"
          data-testid="claim-tooltip"
          className="pointer-events-none fixed z-50 max-w-sm rounded-lg border border-border bg-surface px-3 py-2 text-sm shadow-lg"
          style={{ left: Math.min(hover.x + 12, window.innerWidth - 400), top: hover.y + 16 }}
        >
          <span className="font-medium">{LABEL[hover.claim.verdict]}</span>
          {hover.claim.quote ? <span className="mt-1 block text-muted">Source says: “{hover.claim.quote}”</span> : null}
          {hover.claim.note ? <span className="mt-1 block text-muted">{hover.claim.note}</span> : null}
        </div>
      ) : null}
    </section>
  );
}
