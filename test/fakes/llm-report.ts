// The fake report writer and branch summarizer: Markdown built only from the facts and URLs in the
// prompt, every factual sentence cited, so that the product's citation checks have real work to do.
import { firstWords, sourcedFacts, tagContent, type SourcedFact } from "./llm-parse";
import { PLANTED_OVERSTATEMENT, PLANTED_UNCITED, PLANTED_UNSUPPORTED, type VerifyScenario } from "./llm-verify";

export const FABRICATED_URL = "https://not-a-real-source.example/fabricated";

function sentence(fact: string): string {
  return fact.trim().replace(/[.;:,\s]+$/, "");
}

function dedupe(facts: SourcedFact[]): SourcedFact[] {
  const seen = new Set<string>();
  return facts.filter((f) => {
    const key = `${f.url} ${f.fact.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function titleCase(text: string): string {
  return text.replace(/^\p{L}/u, (c) => c.toUpperCase());
}

export function writeReport(task: string, hallucinate: boolean, plant?: VerifyScenario): string {
  const prompt = tagContent(task, "prompt") ?? "the research prompt";
  const topic = firstWords(prompt, 8);
  const facts = dedupe(sourcedFacts(tagContent(task, "learnings") ?? task));
  const title = `# Research report: ${titleCase(topic)}`;
  if (facts.length === 0) {
    return `${title}\n\nThe research found no usable content, so this report cannot state any findings.\n\n## Open questions\n\n- Every aspect of the prompt remains open; try again with a broader prompt.\n`;
  }
  const urls = [...new Set(facts.map((f) => f.url))];
  const n = (url: string) => urls.indexOf(url) + 1;
  // As the prompt asks: "[n](url)" right after the claim, numbered by first citation.
  const cite = (f: SourcedFact) => `${sentence(f.fact)} [${n(f.url)}](${f.url}).`;
  const citeInline = cite;

  // One key finding per source first, then the remaining facts as prose.
  const keyFindings = urls.slice(0, 6).map((url) => facts.find((f) => f.url === url) as SourcedFact);
  const rest = facts.filter((f) => !keyFindings.includes(f)).slice(0, 18);
  const lines = [
    title,
    "",
    `This report answers the question "${prompt.trim().slice(0, 200)}" from ${urls.length} source${urls.length === 1 ? "" : "s"}. In short: ${citeInline(facts[0])}`,
    "",
    "## Key findings",
    "",
    ...keyFindings.map((f) => `- ${cite(f)}`),
  ];
  if (plant?.plantUnsupported) lines.push(`- ${PLANTED_UNSUPPORTED} [1](${urls[0]}).`);
  if (plant?.plantPartial) lines.push(`- ${sentence(facts[0].fact)}${PLANTED_OVERSTATEMENT} [1](${urls[0]}).`);
  if (plant?.plantUncited) lines.push(`- ${PLANTED_UNCITED}`);
  if (hallucinate) lines.push(`- Independent analysts expect the trend to continue through 2030 [${urls.length + 1}](${FABRICATED_URL}).`);
  if (rest.length) {
    lines.push("", "## Details", "");
    for (let i = 0; i < rest.length; i += 3) lines.push(rest.slice(i, i + 3).map(citeInline).join(" "), "");
  }
  lines.push(
    "",
    "## Open questions",
    "",
    `The sources do not settle every aspect of ${topic}; newer data and primary sources would strengthen the picture.`,
    "",
  );
  // A model may still write its own source list against the prompt's advice: for every other prompt
  // this one does, so that the product's replacement of it is exercised too.
  if (prompt.length % 2 === 0) lines.push("", "## Sources", "", ...urls.map((url, i) => `${i + 1}. [${url}](${url})`), "");
  return lines.join("\n").replace(/\n{3,}/g, "\n\n");
}

export function writeBranchSummary(task: string): string {
  const branch = tagContent(task, "branch") ?? "this branch";
  const facts = dedupe(sourcedFacts(tagContent(task, "learnings") ?? task));
  if (facts.length === 0) return `Findings for "${branch}": nothing was extracted.\n`;
  return [`Findings for "${branch}":`, "", ...facts.map((f) => `- ${sentence(f.fact)} (${f.url})`), ""].join("\n");
}
