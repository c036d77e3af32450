// Applying a repair to a report's body: each unsupported sentence is replaced by its rewrite (which
// keeps the sentence's citations, on each of its sentences) or removed, and what removal leaves
// behind is tidied. Then the citations are numbered again, so that a source no longer cited leaves
// the list.
import { numberCitations } from "../report-citations";
import { isClaimText, sentencesOf, type Claim } from "./claims";

export type RepairEdit = { position: number; action: "remove" } | { position: number; action: "rewrite"; sentence: string } | { position: number; action: "recite"; url: string };

/** A sentence cited to another source instead (paraphrase.ts citedElsewhere): its links give way to one link to `url`. */
export function recited(claim: Claim, url: string): string {
  let first = true;
  return claim.markdown
    .replace(/\s*\[[^\]\n]*\]\(https?:\/\/[^)\s]+(?:\s+"[^"]*")?\)/g, (link) => {
      if (!first) return "";
      first = false;
      return `${/^\s/.test(link) ? " " : ""}[0](${url})`;
    });
}

/** The citations of a sentence, as they stood after it: "[2](…)[5](…)". */
function citationsOf(claim: Claim): string {
  return claim.urls.map((url) => `[${"0"}](${url})`).join("");
}

const UNSPACED_END = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * A rewritten sentence: its words, then the original citations before its final punctuation. A
 * correction of several sentences has the citations on each, so that each is a cited claim judged
 * again; fragments of it that say nothing (fewer than three words) are left out.
 */
export function rewritten(claim: Claim, sentence: string): string {
  const words = sentence.replace(/\[[^\]\n]*\]\([^)\s]*\)/g, "").replace(/\s+/g, " ").replace(/\s+([.,;:!?])/g, "$1").trim();
  const pieces = sentencesOf(words).filter((s) => isClaimText(s));
  return (pieces.length > 0 ? pieces : [words])
    .map((piece) => {
      const m = /^(.*?)([.!?。！？]*)$/su.exec(piece) as RegExpExecArray;
      return `${m[1].trimEnd()} ${citationsOf(claim)}${m[2] || (UNSPACED_END.test(piece) ? "。" : ".")}`;
    })
    .join(" ");
}

export function applyRepairs(body: string, claims: Claim[], edits: RepairEdit[], titles: ReadonlyMap<string, string>): string {
  const byPosition = new Map(claims.map((c) => [c.position, c]));
  const ordered = edits
    .map((e) => ({ edit: e, claim: byPosition.get(e.position) }))
    .filter((x): x is { edit: RepairEdit; claim: Claim } => x.claim !== undefined)
    .sort((a, b) => b.claim.start - a.claim.start);
  let out = body;
  for (const { edit, claim } of ordered) {
    if (claim.row) {
      // A table row is removed whole (its line), never rewritten: a sentence has no place in a table.
      if (edit.action === "remove") {
        const lineEnd = out.indexOf("\n", claim.end);
        out = out.slice(0, out.lastIndexOf("\n", claim.start - 1) + 1) + (lineEnd === -1 ? "" : out.slice(lineEnd + 1));
      }
      continue;
    }
    if (edit.action === "rewrite") {
      out = out.slice(0, claim.start) + rewritten(claim, edit.sentence) + out.slice(claim.end);
    } else if (edit.action === "recite") {
      out = out.slice(0, claim.start) + recited(claim, edit.url) + out.slice(claim.end);
    } else {
      // Take the sentence and the space before it (or after it, at the start of a line).
      let start = claim.start;
      let end = claim.end;
      if (start > 0 && out[start - 1] === " ") start--;
      else if (out[end] === " ") end++;
      out = out.slice(0, start) + out.slice(end);
    }
  }
  out = out
    .split("\n")
    .filter((line) => !/^\s*([-*+]|\d+[.)])\s*$/.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n");
  return numberCitations(out, new Map(titles)).markdown;
}
