// The fake LLM's answer agent, evaluator and beast mode: scripted scenarios chosen by keywords in
// the question, played from what the prompt shows (allowed actions, known URLs, pages read,
// lessons), so that every reply is valid for the step's schema. URLs to read and pages cited are
// named by the handles the prompt shows them with (U1 for a known URL, P1 for a page read).
//   "1+1"        trivial: answers at once, no references
//   (default)    search → visit → answer quoting a sentence that is on a page it read
//   "fabricated" the first answer quotes a sentence that is on no page; after the lesson, a real one
//   "probably"   every answer hedges (the evaluator rejects it) until beast mode answers
//   "endless"    never answers: searches, visits, reflects for as long as the budget lasts
//   "duplicate"  reflects twice with sub-questions that repeat the question and each other
//   "misattributed" the answer quotes the second page read but names the first one's URL
//   "sentences"  the answer is three sentences, the quote the middle one
//   "unsourced"  beast mode answers without a reference
import { firstWords, sentencesOf, tagContent, unescapeAttr } from "./llm-parse";

export const BAD_QUOTE = "This sentence was never written on any page the agent read.";

interface Page {
  /** Its handle (P1…), by which a reference names it. */
  id: string;
  url: string;
  title: string;
  text: string;
}

function pagesOf(task: string): Page[] {
  const out: Page[] = [];
  for (const m of task.matchAll(/<page id="([^"]*)" url="([^"]*)" title="([^"]*)">\n([\s\S]*?)\n<\s?\/page>/g)) {
    out.push({ id: unescapeAttr(m[1]), url: unescapeAttr(m[2]), title: unescapeAttr(m[3]), text: m[4].replace(/\s*\[…\]$/, "") });
  }
  return out;
}

const lines = (task: string, name: string) =>
  (tagContent(task, name) ?? "")
    .split("\n")
    .map((l) => l.replace(/^-\s*/, "").trim())
    .filter(Boolean);

/** A sentence really on the first read page that has one, naming the page by its handle. */
function goodReference(pages: Page[]) {
  for (const p of pages) {
    const sentence = sentencesOf(p.text)[0];
    if (sentence) return { source: p.id, exactQuote: sentence };
  }
  return null;
}

export function answerAgentReply(task: string, nextNumber: (key: string) => number) {
  const question = tagContent(task, "question") ?? "";
  const current = tagContent(task, "current_question");
  const allowed = (tagContent(task, "allowed_actions") ?? "answer").split(",").map((a) => a.trim());
  const can = (a: string) => allowed.includes(a);
  const q = question.toLowerCase();
  const pages = pagesOf(task);
  // "U1: https://… — title: snippet": the handles of the URLs it may read.
  const known = lines(task, "known_urls").map((l) => l.split(":")[0]);
  const topic = firstWords(question, 6);
  const answer = (text: string, references: { source: string; exactQuote: string }[], think = "I can answer now.") => ({ action: "answer", think, answer: text, references });

  if (q.includes("1+1") && can("answer")) return answer("2", [], "This is simple arithmetic.");
  if (q.includes("duplicate") && can("reflect")) {
    const n = nextNumber(`dup|${question}`);
    if (n === 1) return { action: "reflect", think: "I should split the question.", questionsToAnswer: [`${question.toUpperCase()}!!`, "Which year was it first published?"] };
    if (n === 2) return { action: "reflect", think: "More sub-questions.", questionsToAnswer: ["which YEAR was it first published", "Which years was it first published?"] };
  }
  if (current && can("answer")) return answer(`The answer to "${current}" is in the sources found so far.`, [], "A sub-question I can settle.");
  if (q.includes("endless")) {
    const n = nextNumber(`endless|${question}`);
    if (can("search")) return { action: "search", think: "Let me look further.", searchQuery: [`${topic} angle ${n}`] };
    if (can("visit") && known.length) return { action: "visit", think: "Reading one more page.", URLTargets: known.slice(0, 1) };
    if (can("reflect")) return { action: "reflect", think: "Another angle.", questionsToAnswer: [`What about ${topic} from side ${n}?`] };
  }
  const ref = goodReference(pages);
  if (ref && can("answer") && !q.includes("endless")) {
    const lessons = (task.match(/<lesson>/g) ?? []).length;
    if (q.includes("fabricated") && lessons === 0) return answer(`The source says: ${BAD_QUOTE}`, [{ source: ref.source, exactQuote: BAD_QUOTE }]);
    if (q.includes("probably")) return answer(`It is probably this: ${ref.exactQuote}`, [ref], "Not fully sure.");
    const second = pages.map((p) => ({ source: p.id, exactQuote: sentencesOf(p.text)[0] })).filter((r) => r.exactQuote && r.source !== ref.source)[0];
    if (q.includes("misattributed") && second) return answer(second.exactQuote, [{ source: ref.source, exactQuote: second.exactQuote }]);
    if (q.includes("sentences")) return answer(`Here is what the sources say. ${ref.exactQuote} Nothing read contradicts it.`, [ref]);
    return answer(ref.exactQuote, [ref], "The page states it plainly.");
  }
  if (can("visit") && known.length) return { action: "visit", think: "These pages look relevant.", URLTargets: known.slice(0, 2) };
  if (can("search")) return { action: "search", think: "I need sources.", searchQuery: [topic] };
  if (can("reflect")) return { action: "reflect", think: "What else must I know?", questionsToAnswer: [`What is the background of ${topic}?`] };
  return answer("I could not find this out.", [], "Nothing else to do.");
}

const HEDGE = /\b(probably|maybe|might|not sure|could not)\b/i;

export function answerEvaluatorReply(task: string) {
  const answer = tagContent(task, "answer") ?? "";
  const hedged = HEDGE.test(answer);
  const ok = (reason: string) => ({ applies: false, pass: true, reason });
  return {
    definitive: { applies: true, pass: !hedged, reason: hedged ? "The answer hedges." : "The answer is definitive." },
    freshness: ok("Not time-sensitive."),
    plurality: ok("No number of items asked for."),
    completeness: ok("One aspect only."),
    lesson: hedged ? "State the answer without hedging words." : "",
  };
}

export function answerBeastReply(task: string) {
  const ref = (tagContent(task, "question") ?? "").toLowerCase().includes("unsourced") ? null : goodReference(pagesOf(task));
  return ref ? { answer: `Final answer: ${ref.exactQuote}`, references: [ref] } : { answer: "The sources read do not settle this; the best estimate is unknown.", references: [] };
}

/**
 * The final answer in the client's terms (lib/answer/agents/final.ts): the researched answer again,
 * as JSON when a format is asked; the server's max_tokens cut applies to it like to any reply.
 */
export function answerFinalReply(task: string, format: { type: string; json_schema?: { schema?: unknown } } | undefined, instance: (schema: unknown) => unknown) {
  const answer = tagContent(task, "answer") ?? "";
  if (format?.type === "json_schema" && format.json_schema?.schema) return { text: JSON.stringify(instance(format.json_schema.schema)), json: true };
  if (format?.type === "json_object") return { text: JSON.stringify({ answer }), json: true };
  return { text: `In short: ${answer}`, json: false };
}
