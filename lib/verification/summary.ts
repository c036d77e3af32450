// A verification in words, for the CLI and logs: the support rate, the counts, what the repair did,
// and each claim that is not fully supported.
import { percent } from "../exports/document";
import type { VerificationView } from "./view";

const LABEL = { supported: "supported", partial: "partly supported", unsupported: "unsupported", uncited: "uncited fact", unverified: "not verified" } as const;

export function verificationSummary(v: VerificationView): string[] {
  if (v.status === "failed") return ["Citations: the verification could not finish; the report is as written."];
  if (v.status !== "done") return [`Citations: verification ${v.status}.`];
  const c = v.counts;
  const lines = [
    `Citations verified: support rate ${v.support_rate === null ? "n/a (no claims)" : percent(v.support_rate)} — ${c.supported} supported, ${c.partial} partly supported, ${c.unsupported} unsupported, ${c.uncited} uncited of ${c.claims} claims.`,
  ];
  if (c.unverified > 0) lines.push(`Not verified: ${c.unverified} of the ${c.claims} claims got no usable verdict; they are kept as written (the rate is of the others).`);
  if (v.repair.removed || v.repair.rewritten) {
    lines.push(`Repair: ${v.repair.removed} unsupported sentence(s) removed, ${v.repair.rewritten} rewritten (support rate as written: ${v.as_written.support_rate === null ? "n/a" : percent(v.as_written.support_rate)}).`);
  }
  for (const claim of v.claims.filter((x) => x.verdict !== "supported")) {
    lines.push(`  ! ${LABEL[claim.verdict]}: ${claim.sentence}${claim.quote ? `\n      source says: "${claim.quote}"` : ""}`);
  }
  return lines;
}
