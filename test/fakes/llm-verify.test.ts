// The fake citation verifier's quotes pass the product's own check (checkVerdict) whatever the source
// sentence's ending: a sentence in typographic quotes (a pull quote) is quoted as it stands, not as its
// bare form plus a full stop (which is not in the source; the overstatement planted on such a fact was
// then judged unsupported and repaired away, a flaky integration test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkVerdict } from "@/lib/verification/verdicts";
import { PLANTED_OVERSTATEMENT, verifierReply } from "./llm-verify";

const scenario = { plantUnsupported: false, plantPartial: true, plantUncited: false, forgeQuotes: false };
const source = [
  "Vertical farms struggle with energy bills.",
  // A pull quote (the fixture pages' <blockquote>): its own paragraph.
  "“LED efficiency has improved to about 3 micromoles of light per joule, up from 1.7 a decade ago.”",
  "— Ana Ruiz, lead analyst",
  "Did the three operators that closed last year all cite electricity prices as the main reason?",
].join("\n");
const task = (sentences: string[]) =>
  `<source url="https://example.com/farms">${source}</source>\n<sentences>${sentences.map((s, i) => `<sentence id="C${i + 1}">${s}</sentence>`).join("\n")}</sentences>`;

test("the fake verifier quotes a source sentence as it stands, so that the product accepts its quote", () => {
  const quoted = "“LED efficiency has improved to about 3 micromoles of light per joule, up from 1.7 a decade ago.”";
  const question = "Did the three operators that closed last year all cite electricity prices as the main reason?";
  const { verdicts } = verifierReply(task([`In short: ${quoted}.`, `${quoted}${PLANTED_OVERSTATEMENT}.`, question]), scenario);
  assert.deepEqual(verdicts.map((v) => v.id), ["C1", "C2", "C3"], "each verdict names its sentence by the handle it was given");
  const sentences = [`In short: ${quoted}.`, `${quoted}${PLANTED_OVERSTATEMENT}.`, question];
  const accepted = verdicts.map((v, i) => checkVerdict(v as Parameters<typeof checkVerdict>[0], source, "https://example.com/farms", sentences[i]).verdict);
  assert.deepEqual(accepted, ["supported", "partial", "supported"]);
});
