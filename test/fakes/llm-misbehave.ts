// The misbehaving model: the scenario fake's reply (llm-agents.ts), transformed the way real models and
// local servers answer (issue 51; modelled on dzhng/deep-research #76, jina-ai/node-DeepResearch #47/#49
// and the reasoning output of Ollama, vLLM, llama.cpp's server and LM Studio). Each mode is one habit:
//   think            a <think>…</think> block before every reply; its reasoning mentions braces and a
//                    draft JSON object, as a model planning a JSON reply does
//   think-plain      the same reasoning without a brace, in turn in <think>, Magistral's [THINK]…[/THINK] and
//                    Seed-OSS's <seed:think>
//   reasoning-field  the reasoning in `reasoning_content` (message and stream deltas), not in content
//   harmony          gpt-oss's chat format leaked, as served without its parser: the reasoning in an analysis
//                    channel, the reply in the final one ("<|constrain|>json" for JSON), "<|return|>" after it
//   prose            JSON in prose, in ```json fences or bare (the `sloppy` option's text, and without fences)
//   wrapper          the object wrapped in another: {"response": {…}}, {"data": {…}}, or {"response": "{…}"}
//                    (the object as a string of JSON), in turn
//   bare-list        an object that holds only a list sent as the bare list: [{…}, {…}] for {"queries": […]}
//   bare-strings     each listed item with a text (`content`) and its tags sent as the text alone: a page read's
//                    "items": ["…", "…"], its query tags left out
//   json-lines       an object that holds only a list of objects sent as its items one after another, in turn one
//                    a line (JSON Lines) and with commas between, with no list around them
//   other-keys       every key of a JSON reply in another convention, as models write the keys of a schema they
//                    were only shown: camelCase as snake_case ("exact_quote") or, in turn, as Title Case words
//                    ("Exact Quote"); snake_case as camelCase
//   nulls            what a JSON reply leaves empty (a text "", a list []) sent as null, or, in every other reply, left
//                    out: "correction": null, no "quote" key, as models mark what does not apply
//   placeholders     what a JSON reply leaves empty (a text "", a null) written as a word for nothing, in turn "None",
//                    "N/A", "null", "-", "none": "sql": "None" beside the output, "correction": "N/A", "chart": "null"
//   sql-dialect      the analysis agent's SQL written as for another database: in turn the uploaded file read by its name
//                    (DuckDB's idiom, FROM 'sales.csv'), identifiers in MySQL's backticks with the query in a ```sql fence
//                    inside the JSON string, or after a "SQL:" label
//   enum-case        enum (and const) values in another case or padded: "Supported", " SEARCH "; booleans as
//                    "Yes"/"No" or "true"/"false" text
//   worded-enums     enum (and const) values that are judgements in the model's own words: "not supported" for
//                    "unsupported", "partially" for "partial", in turn "fully supported" and "Supported (as judged)",
//                    underscores as spaces ("objective met")
//   list-text        lists of texts written as text, as models write a list of one or of a few choices: ["heat pumps"]
//                    as "heat pumps", [] as "", a list of handles or choices as "S1, S3"
//   tool-call        a reply choosing an action written as a tool call, in turn: {"search": {…}}, {"action": "search",
//                    "arguments": {…}}, and its arguments as a string of JSON
//   grouped          tagged items written grouped by their tags, as models asked to tag each item write them: {"items":
//                    {"Q1": ["fact", …], "Q2": […], "other": […]}}, in turn with no list property around the groups
//   retyped          handles and ids in another case, quoted or bracketed ("[S3]", "\"d1\""), a handle with a label
//                    after it ("Q1 (as listed)") or before it ("id: Q1"), its number with a zero ("Q01"), URLs with
//                    scheme and host in upper case, a trailing slash or ?utm_source=x, file names as table names or in
//                    upper case, integer ids as numeric strings
//   near-quotes      quotes near-verbatim: commas dropped, typographic quotes, an ellipsis for a middle
//                    part, a line break
//   count-off        arrays whose length was asked for (queries, questions, tasks) one longer or shorter
//   truncated        every 3rd JSON reply cut mid-object with finish_reason "length" (a repair follows)
//   cut-json         every JSON reply past 200 characters cut at half of it with finish_reason "length", its
//                    repairs too, as by a server whose output limit is below it; asked to go on after
//                    it, the model sends the rest (llm-server.ts keeps what it cut)
//   empty            every 3rd reply empty (both count first attempts: a repair request is answered)
//   fenced           every reply asked for as Markdown (not JSON) sent whole in a code fence: "```markdown",
//                    "```", and "```markdown" with a chatty line before and after it, in turn, as local
//                    models answer "write a report in Markdown"
//   references       the report cites by number with its own reference list: "… [1]." and, at its end,
//                    "## References" with "1. https://…" (an academic habit), Markdown definitions
//                    "[1]: https://…", or a list under a bold "**References**" line cited as "[Source 1]" and
//                    "[1–2]", in turn (the last first)
//   cite-styles      the report and the write-up cite the sources' handles as models write them in their own
//                    styles, in turn: "(S2)", "[citation:2]" (DeepSeek's), "【2†source】" (gpt-oss's browsing
//                    style), "[Source 2]", "[^S2]", "[S2](S2)", and two sources as a range "[S2-S3]"
//   tables           the report's and the write-up's cited list items as a Markdown table, as models set out findings:
//                    "| Finding | Source |", each item's citations moved to its Source column
//   paragraph-cites  the report's and the write-up's prose paragraphs cite once, at their end: each paragraph's citations
//                    moved after its last sentence ("A. B. C [1](…)[2](…)."), as long-form writing cites
//   sources-lines    the report's and the write-up's prose paragraphs of two sentences or more cite nothing in their
//                    text: their citations go on a line under them, "Sources: [1](…), [2](…)"
//   uncited          the report and the write-up cite nothing, as small models that let the rule go write them: every citation left out,
//                    until the request says so (a <problem> in its prompt)
//   language-drift   the write-up and the answer written in Chinese, and the report's last paragraph (a drift mid-reply),
//                    citations kept, as Qwen models drift into it (the prompts in English), until the request says so
//                    (a <problem> in its prompt, or an answer's lesson): each prose line one Chinese sentence, the
//                    line's citations after it
//   cite-after       the report's and the write-up's citations written right after the sentence's full stop, with no
//                    space, as in print: "… fell 20%.[1](…)", "… fell 20%.[S2]"
//   miscite          the report cites every third sentence to the source after the one it comes from (its prompt's
//                    <source> list, in turn), as models misnumber their sources
//   schema-frame     a JSON reply inside the frame of a JSON Schema, as models shown the schema write it:
//                    {"$schema": "…", "type": "object", "properties": {…the reply…}}
//   loose-json       JSON as models without a grammar write it, in turn: JavaScript's (bare keys, single-quoted
//                    strings, a // comment), Python's (True, False, None; line breaks and tabs raw inside strings),
//                    and JSON with a /* comment */ and raw line breaks; trailing commas in all three
//   generic          every schema answered validly in the model's own words, repeating none of the ids
//                    it was given: handle enums → their first value, integer ids → 0, 1, 2… by position,
//                    string ids → "Task 1", URLs → path in lower case with a trailing slash, file names →
//                    "Sales data", quotes → paraphrased (words reordered). Semantic enums (a task's type,
//                    a verdict) keep the scenario's value: they are judgements, not ids.
//   cut-off          every long reply asked for as text (a report, a summary, a write-up) cut at the server's
//                    output limit (finish_reason "length"), mid-word, at 45% of it; asked to continue, the
//                    model restarts the cut sentence, and is cut again at 75%, then ends
//   loop             a long text reply (a report, a write-up) repeats its last line until the output limit stops it
//                    (finish_reason "length"), as small local models fall into a loop; asked to go on, it loops on.
//                    The write-up's copies are numbered ("1. …", "2. …"): a numbered list running away
//   no-usage         the server reports no token usage: no `usage` in a reply, no usage chunk ending a stream
//                    whatever stream_options asks (llama.cpp's server, LM Studio, older vLLM, some proxies);
//                    llm-server.ts answers so; the replies are the scenario's
//   no-stream-options the server rejects any request with stream_options with a 400 "Unrecognized request
//                    argument supplied: stream_options", as older Azure OpenAI API versions do
//   no-system        the server rejects any request with a system message with a 400 "System role not
//                    supported", as vLLM and llama.cpp's server do with Gemma 2's chat template: llm-server.ts
//                    answers so; the replies are the scenario's (a system prompt sent at the head of the
//                    first user message is read as the system prompt)
//   no-schema        the server rejects response_format json_schema with a 400, as DeepSeek's API does (it
//                    takes json_object): llm-server.ts answers so; the replies are the scenario's
//   reasoning-params the server rejects max_tokens (it takes max_completion_tokens), a temperature other than
//                    1, top_p and the penalties with OpenAI's 400s, as its API does for a reasoning model (o1,
//                    o3, gpt-5) asked under a name the AI SDK does not know as one (an Azure deployment's, a
//                    LiteLLM alias): llm-server.ts answers so; the replies are the scenario's
//   hidden-reasoning the model thinks 5,000 tokens before every reply, as OpenAI's reasoning models do: never
//                    sent, counted in its completion tokens and in max_tokens / max_completion_tokens; a
//                    limit it fills (the answer agent caps each call at 4,000 at most) ends the reply
//                    empty, finish_reason "length": llm-server.ts answers so
//   error-in-200     every 4th request answered HTTP 200 with an error for its body, as OpenRouter answers an
//                    upstream provider's failure after its 200 went out: {"error": {"message": "Provider
//                    returned error", "code": 502}} whole, or streamed after ": OPENROUTER PROCESSING"
//                    comments; and every other long stream fails so mid-reply, half of it sent:
//                    llm-server.ts answers so
//   ignores-format   the server ignores response_format, as Anthropic's OpenAI-compatible endpoint does: a JSON reply
//                    to a request that does not show the JSON Schema (in its prompt or a repair request) has
//                    keys of the model's own guessing: llm-server.ts answers so
//   half-open        every reply sent whole in `reasoning_content`, its content null, as vLLM's reasoning parsers
//                    send a reply without a closing </think> ("everything is reasoning content")
//   silent-cut       the server's context window is SILENT_CUT_CONTEXT tokens, and a longer prompt is cut as
//                    Ollama cuts it (its first tokens and its end kept, to about half the window), counted
//                    as cut, and answered without its instructions: a valid instance of the schema holding
//                    nothing of the task, or prose; every such reply carries UNINSTRUCTED_MARKER:
//                    llm-server.ts answers so
// The value is walked alongside the request's JSON Schema (response_format, llm-schema-leaves.ts), so
// that each leaf is known for what it is: an enum value, a handle, an id, a URL, a file name, a quote or
// free text.
import { schemaInstance } from "./json-schema-instance";
import { unescapeAttr } from "./llm-parse";
import { leafKind, mapArrays, mapLeaves, type JsonSchema, type Leaf, type LeafKind } from "./llm-schema-leaves";

export const MISBEHAVE_MODES = [
  "think",
  "think-plain",
  "reasoning-field",
  "harmony",
  "prose",
  "wrapper",
  "bare-list",
  "bare-strings",
  "json-lines",
  "other-keys",
  "nulls",
  "placeholders",
  "sql-dialect",
  "enum-case",
  "worded-enums",
  "list-text",
  "tool-call",
  "grouped",
  "retyped",
  "near-quotes",
  "count-off",
  "truncated",
  "cut-json",
  "empty",
  "fenced",
  "references",
  "cite-styles",
  "tables",
  "paragraph-cites",
  "sources-lines",
  "uncited",
  "language-drift",
  "cite-after",
  "schema-frame",
  "miscite",
  "loose-json",
  "generic",
  "cut-off",
  "loop",
  "no-usage",
  // Last: the product remembers, for the life of the process, that the server takes no stream_options,
  // no system message, no json_schema, neither max_tokens nor sampling settings, and that its model needs
  // room to think.
  "no-stream-options",
  "no-system",
  "no-schema",
  "reasoning-params",
  "hidden-reasoning",
  "error-in-200",
  // Last of all, each its own server to the product (test/helpers/misbehaving-runs.ts): it holds every
  // prompt to the window it learned, and reads a server's blank replies' reasoning, for the life of the process.
  "silent-cut",
  "half-open",
  "ignores-format",
] as const;
export type MisbehaveMode = (typeof MISBEHAVE_MODES)[number];

/** A word planted in every reasoning text: found in anything a user sees, the reasoning leaked. */
export const REASONING_MARKER = "quokka";
/**
 * What leaked reasoning looks like in user-visible text (case-insensitive); and the word in every reply
 * to a prompt the server cut (mode "silent-cut"), which nothing may take as an answer.
 */
export const UNINSTRUCTED_MARKER = "numbat";
export const REASONING_LEAKS = ["<think", "</think>", REASONING_MARKER, UNINSTRUCTED_MARKER] as const;

/**
 * Mode "silent-cut": Ollama's context window (num_ctx) in the fake's tokens. A longer prompt is cut as
 * Ollama's context shift cuts it: its first 5 tokens kept, then its end, to half the window and a bit
 * (llm/llama_server.go's contextShiftPromptLimit), and counted so.
 */
export const SILENT_CUT_CONTEXT = 1_200;
export const silentCutKept = (context: number) => context - Math.floor((context - 5) / 2);

/**
 * What a model answers a prompt cut to its end, its instructions gone: under a response format's
 * schema (a grammar), a valid instance of it holding nothing of the task; else a few words of prose.
 */
export function uninstructedReply(schema: JsonSchema | undefined, json: boolean): string {
  if (schema) return JSON.stringify(schemaInstance(schema), (_key, value: unknown) => (typeof value === "string" && !/^https?:/.test(value) ? `${UNINSTRUCTED_MARKER} ${value}` : value));
  if (json) return JSON.stringify({ reply: `${UNINSTRUCTED_MARKER}: the text goes on from where it began.` });
  return `It looks like the text begins mid-way (${UNINSTRUCTED_MARKER}). Could you share the rest of it?`;
}

export interface MisbehaveInput {
  mode: MisbehaveMode;
  agent: string;
  /** The scenario's reply and whether it is JSON. */
  text: string;
  json: boolean;
  /** The request's response_format JSON Schema, when it sent one. */
  schema?: JsonSchema;
  /** False for a repair request (the conversation holds an earlier reply): those are answered properly. */
  firstAttempt: boolean;
  /** The conversation's earlier reply (a repair's or a continuation's), if any. */
  earlier?: string | null;
  /** The request's first user message, its task (the sources a report cites, say). */
  prompt: string;
  /** A counter that lives as long as the fake (until reset): which reply is the 3rd, which variant is next. */
  nextNumber: (key: string) => number;
}

export interface MisbehaveOutput {
  text: string;
  /** For reasoning-field: the `reasoning_content` to send beside the text. */
  reasoning: string | null;
  /** "length" when the reply was cut; null: as the server decides. */
  finishReason: "length" | null;
}

/** Mode "language-drift": a sentence of Chinese, as a model drifting into it writes one (about 60 characters). */
const DRIFTED = "根据现有的研究资料，这一发现在多个地区都得到了相关来源的支持，而且数据显示其影响正在逐年扩大。";

/** Mode "language-drift": a Markdown text in Chinese, each prose line one sentence of it with the line's citations after it. */
function inChinese(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*#/.test(line)) return line.replace(/^(\s*#+\s*).*$/, "$1研究报告");
      if (!line.trim() || /^\s*\|/.test(line)) return line;
      const lead = /^\s*(?:[-*+]|\d+\.)\s+/.exec(line)?.[0] ?? "";
      const citations = line.match(/\[[^\]\n]*\]\(https?:\/\/[^)\s]+\)|\[S\d+(?:[,-] ?S\d+)*\]/g) ?? [];
      return `${lead}${DRIFTED.slice(0, -1)}${citations.join("")}。`;
    })
    .join("\n");
}

/** Mode "language-drift": a Markdown text whose last prose paragraph is in Chinese (a drift mid-reply). */
function driftedAtTheEnd(text: string): string {
  const paragraphs = text.split("\n\n");
  const last = paragraphs.findLastIndex((p) => /^[^#|\s]/.test(p.trim()) && /\p{L}{3}/u.test(p));
  if (last < 0) return inChinese(text);
  paragraphs[last] = DRIFTED;
  return paragraphs.join("\n\n");
}

export function misbehave(input: MisbehaveInput): MisbehaveOutput {
  const { mode, json, firstAttempt } = input;
  const out = (text: string, extra: Partial<MisbehaveOutput> = {}): MisbehaveOutput => ({ text, reasoning: null, finishReason: null, ...extra });
  switch (mode) {
    case "think":
      return out(`<think>\n${reasoningText(input, true)}\n</think>\n\n${input.text}`);
    case "think-plain": {
      // In turn as DeepSeek-R1 and Qwen3, Magistral and Seed-OSS mark it.
      const [open, close] = THINK_MARKERS[input.nextNumber("misbehave|think-plain") % THINK_MARKERS.length];
      return out(`${open}\n${reasoningText(input, false)}\n${close}\n\n${input.text}`);
    }
    case "reasoning-field":
      return out(input.text, { reasoning: reasoningText(input, true) });
    case "half-open":
      return out("", { reasoning: input.text });
    case "harmony":
      return out(`<|channel|>analysis<|message|>${reasoningText(input, true)}<|end|><|start|>assistant<|channel|>final${json ? " <|constrain|>json" : ""}<|message|>${input.text}<|return|>`);
    case "no-usage":
    case "no-stream-options":
    case "no-system":
    case "no-schema":
    case "reasoning-params":
    case "hidden-reasoning":
    case "error-in-200":
    case "ignores-format":
      // The server's habits, not the model's: llm-server.ts answers so.
      return out(input.text);
    case "cut-off":
      return json ? out(input.text) : cutOff(input.text, input.earlier ?? null);
    case "loop": {
      // A long text reply goes on repeating its last line until the output limit stops it; asked to go on, it loops on.
      if (json || (input.earlier === null && input.text.length < CUT_OFF_FROM)) return out(input.text);
      const line = loopLine(input.earlier ?? input.text);
      if (!line) return out(input.text);
      // The write-up's loop counts its copies ("1. …", "2. …"), as a numbered list running away does.
      const counted = input.agent === "dr-reply";
      return out(`${input.earlier === null ? input.text : ""}${Array.from({ length: 12 }, (_, k) => `\n\n${counted ? `${k + 1}. ` : ""}${line}`).join("")}`, { finishReason: "length" });
    }
    case "empty":
      return out(firstAttempt && input.nextNumber("misbehave|empty") % 3 === 0 ? "" : input.text);
    default:
      break;
  }
  if (!json && mode === "references" && input.agent === "report-writer") return out(numberedReferences(input.text, (input.nextNumber("misbehave|references") + 1) % 3));
  if (!json && mode === "cite-styles" && (input.agent === "report-writer" || input.agent === "dr-reply")) return out(citeStyles(input.text, input.prompt, () => input.nextNumber("misbehave|cite-styles")));
  if (!json && mode === "tables" && (input.agent === "report-writer" || input.agent === "dr-reply")) return out(findingsTables(input.text));
  if (!json && mode === "paragraph-cites" && (input.agent === "report-writer" || input.agent === "dr-reply")) return out(paragraphCitations(input.text));
  if (!json && mode === "sources-lines" && (input.agent === "report-writer" || input.agent === "dr-reply")) return out(sourcesLines(input.text));
  if (!json && mode === "miscite" && input.agent === "report-writer") return out(miscited(input.text, input.prompt));
  if (!json && mode === "cite-after" && (input.agent === "report-writer" || input.agent === "dr-reply")) {
    return out(input.text.replace(/ ((?:\[[^\]\n]*\]\(https?:\/\/[^)\s]+\)|\[[^\]\n(]*\])+)\./g, ".$1"));
  }
  // Every citation left out, until the request says the report cited nothing (a <problem> in its prompt).
  if (!json && mode === "uncited" && (input.agent === "report-writer" || input.agent === "dr-reply") && !input.prompt.includes("<problem>")) {
    return out(input.text.replace(/ ?\[[^\]\n]*\]\(https?:\/\/[^)\s]+\)/g, "").replace(/ ?\[S\d+(?:, ?S\d+)*\]/g, ""));
  }
  if (mode === "language-drift") {
    const drifting = input.agent === "report-writer" || (input.agent === "dr-reply" && input.prompt.includes("<snippets>"));
    // The report's last paragraph, as a model drifts mid-reply; the write-up whole.
    if (!json && drifting && !input.prompt.includes("<problem>")) return out(input.agent === "report-writer" ? driftedAtTheEnd(input.text) : inChinese(input.text));
    const action = json ? (parseOrUndefined(input.text) as { action?: string; answer?: string } | undefined) : undefined;
    // The answer agent's answer, until an answer was rejected for its language (the lesson is in its knowledge).
    if (input.agent === "answer-agent" && action?.action === "answer" && typeof action.answer === "string" && !input.prompt.includes("is in Chinese")) {
      return out(JSON.stringify({ ...action, answer: `${DRIFTED}${DRIFTED}` }));
    }
  }
  if (!json) return out(mode === "fenced" && input.text ? fenced(input.text, (input.nextNumber("misbehave|fenced") - 1) % 3) : input.text);
  const value = parseOrUndefined(input.text);
  if (value === undefined) return out(input.text);
  switch (mode) {
    case "loose-json":
      return out(looseJson(value, input.nextNumber("misbehave|loose-json") % 3));
    case "prose":
      return out(input.nextNumber("misbehave|prose") % 2 === 1 ? sloppyJson(input.text) : `The result follows. ${input.text} I hope this helps!`);
    case "schema-frame":
      return out(typeof value === "object" && value !== null && !Array.isArray(value) ? JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: value }) : input.text);
    case "wrapper": {
      // In turn: {"response": {…}}, {"data": {…}}, and {"response": "{…}"} (the object as a string of JSON).
      const n = input.nextNumber("misbehave|wrapper") % 3;
      return out(JSON.stringify(n === 0 ? { response: JSON.stringify(value) } : { [n === 1 ? "response" : "data"]: value }));
    }
    case "json-lines": {
      // In turn one item a line (JSON Lines), and items with commas between and no list around them.
      const keys = typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
      const list = keys.length === 1 ? (value as Record<string, unknown>)[keys[0]] : undefined;
      if (!Array.isArray(list) || list.length < 2 || !list.every((item) => typeof item === "object" && item !== null && !Array.isArray(item))) return out(input.text);
      return out(list.map((item) => JSON.stringify(item)).join(input.nextNumber("misbehave|json-lines") % 2 ? ",\n" : "\n"));
    }
    case "sql-dialect": {
      const step = value as { sql?: unknown };
      if (input.agent !== "dr-analysis" || typeof step?.sql !== "string") return out(input.text);
      // In turn: the file read by its name, as DuckDB's own documentation writes it (FROM 'sales.csv'); then MySQL's backticks
      // in a fence, after a label.
      const n = input.nextNumber("misbehave|sql-dialect");
      const file = /<dataset\b[^>]*\btable="([^"]*)"[^>]*\bfile="([^"]*)"/.exec(input.prompt);
      if (n % 3 === 1 && file) return out(JSON.stringify({ ...step, sql: step.sql.replace(new RegExp(`\\b(FROM|JOIN)\\s+"${file[1]}"`, "gi"), (_, k: string) => `${k} '${file[2]}'`) }));
      const ticked = step.sql.replace(/"((?:[^"]|"")*)"/g, (_, name: string) => `\`${name.replace(/""/g, '"')}\``);
      const sql = n % 2 === 0 ? `\`\`\`sql\n${ticked}\n\`\`\`` : `SQL: ${ticked}`;
      return out(JSON.stringify({ ...step, sql }));
    }
    case "nulls":
      return out(JSON.stringify(emptiesAsNull(value, input.nextNumber("misbehave|nulls") % 2 === 1)));
    case "placeholders":
      return out(JSON.stringify(emptiesAsPlaceholders(value, () => PLACEHOLDERS[input.nextNumber("misbehave|placeholders") % PLACEHOLDERS.length])));
    case "other-keys":
      return out(JSON.stringify(otherKeys(value, input.nextNumber("misbehave|other-keys") % 2)));
    case "bare-strings":
      // Each listed item that is a text and its tags, as its text alone: "items": ["…", "…"].
      return out(JSON.stringify(value, (_key, v: unknown) => (Array.isArray(v) ? v.map((item) => (item && typeof item === "object" && typeof (item as { content?: unknown }).content === "string" ? (item as { content: string }).content : item)) : v)));
    case "bare-list": {
      const keys = typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
      const list = keys.length === 1 ? (value as Record<string, unknown>)[keys[0]] : undefined;
      return out(Array.isArray(list) ? JSON.stringify(list) : input.text);
    }
    case "cut-json":
      return input.text.length > 200 ? out(input.text.slice(0, Math.floor(input.text.length / 2)), { finishReason: "length" }) : out(input.text);
    case "truncated":
      if (!firstAttempt || input.nextNumber("misbehave|truncated") % 3 !== 0) return out(input.text);
      // A prefix of the object: its outer brace never closes, as at a server's max_tokens.
      return out(input.text.slice(0, Math.max(1, Math.floor(input.text.length * 0.6))), { finishReason: "length" });
    case "count-off":
      // The replies with a counted list alternate: one more, then one fewer.
      if (!isCounted(value)) return out(input.text);
      return out(JSON.stringify(countOff(value, input.nextNumber("misbehave|count") % 2 === 1 ? 1 : -1)));
    case "tool-call": {
      if (typeof value !== "object" || value === null || Array.isArray(value) || typeof (value as { action?: unknown }).action !== "string") return out(input.text);
      const { action, ...args } = value as { action: string };
      const n = input.nextNumber("misbehave|tool-call") % 3;
      return out(JSON.stringify(n === 1 ? { [action]: args } : { action, arguments: n === 2 ? args : JSON.stringify(args) }));
    }
    case "grouped": {
      const groups = groupedByTag(value);
      if (!groups) return out(input.text);
      return out(JSON.stringify(input.nextNumber("misbehave|grouped") % 2 === 1 ? { [groups.key]: groups.groups } : groups.groups));
    }
    case "list-text":
      return out(JSON.stringify(mapArrays(value, input.schema ?? {}, listAsText)));
    case "enum-case":
    case "worded-enums":
    case "retyped":
    case "near-quotes":
    case "generic": {
      const variant = () => input.nextNumber(`misbehave|${mode}`);
      return out(JSON.stringify(mapLeaves(value, input.schema ?? {}, (leaf) => transformLeaf(mode, leaf, variant))));
    }
    default:
      return out(input.text);
  }
}

/**
 * Every key of the value in another convention, as models write keys whose schema they were only shown:
 * camelCase as snake_case ("exact_quote"), or in turn as Title Case words ("Exact Quote"); snake_case as
 * camelCase.
 */
function otherKeys(value: unknown, variant: number): unknown {
  if (Array.isArray(value)) return value.map((v) => otherKeys(v, variant));
  if (typeof value !== "object" || value === null) return value;
  const renamed = (key: string) => {
    if (key.includes("_")) return key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const words = key.split(/(?=[A-Z])/);
    if (words.length === 1) return key;
    return variant === 0 ? words.map((w) => w.toLowerCase()).join("_") : words.map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
  };
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [renamed(k), otherKeys(v, variant)]));
}

/** Every empty text and empty list of the value as null, or (`omit`) left out of its object (mode nulls). */
function emptiesAsNull(value: unknown, omit: boolean): unknown {
  const empty = (v: unknown) => v === "" || (Array.isArray(v) && v.length === 0);
  if (Array.isArray(value)) return value.map((v) => (empty(v) ? v : emptiesAsNull(v, omit)));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (empty(v) ? (omit ? [] : [[k, null]]) : [[k, emptiesAsNull(v, omit)]])));
}

/** Words models write for nothing where a JSON reply has an empty text or a null. */
const PLACEHOLDERS = ["None", "N/A", "null", "-", "none"];

/** Every empty text and null of a reply (at any depth) as a placeholder word. */
function emptiesAsPlaceholders(value: unknown, word: () => string): unknown {
  if (value === "" || value === null) return word();
  if (Array.isArray(value)) return value.map((v) => emptiesAsPlaceholders(v, word));
  if (typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, emptiesAsPlaceholders(v, word)]));
}

/** Markdown sent whole in a fence: in turn ```markdown inside a chat line before and after, ```markdown, a bare one. */
function fenced(text: string, variant: number): string {
  const block = `${variant === 2 ? "```" : "```markdown"}\n${text}\n\`\`\`\n`;
  return variant === 0 ? `Sure! Here is what you asked for:\n\n${block}\nLet me know if you need anything else!` : block;
}

/**
 * A report's links as numbers into a reference list at its end, in turn from the third (the counter starts at 1): a "## References" list, Markdown
 * definitions, or a list under a bold "**References**" line with "[Source n]" markers (adjacent ones as a range, "[1–2]").
 */
function numberedReferences(text: string, variant: number): string {
  const urls: string[] = [];
  let body = text.replace(/\[[^\]\n]*\]\((https?:\/\/[^)\s]+)\)/g, (_, url: string) => {
    if (!urls.includes(url)) urls.push(url);
    return `[${urls.indexOf(url) + 1}]`;
  });
  if (urls.length === 0) return text;
  if (variant === 2) body = body.replace(/\[(\d+)\]\[(\d+)\]/g, (whole, a: string, b: string) => (Number(b) === Number(a) + 1 ? `[${a}–${b}]` : whole)).replace(/\[(\d+)\](?![–\d])/g, "[Source $1]");
  const entries = urls.map((url, i) => (variant === 1 ? `[${i + 1}]: ${url}` : `${i + 1}. ${url}`));
  const heading = ["## References\n\n", "", "**References**\n\n"][variant];
  return `${body.trimEnd()}\n\n${heading}${entries.join("\n")}\n`;
}

/** The handle styles of mode cite-styles, for source number n. */
const CITE_STYLES: ((n: number) => string)[] = [(n) => `(S${n})`, (n) => `[citation:${n}]`, (n) => `【${n}†source】`, (n) => `[Source ${n}]`, (n) => `[^S${n}]`, (n) => `[S${n}](S${n})`];

/**
 * A report's or write-up's citations as source handles in other styles (mode cite-styles): a report's links to
 * the URLs of its prompt's <source id="S2" url="…"> elements, a write-up's "[S2]"; two sources cited together,
 * now and then, as a range.
 */
function citeStyles(text: string, prompt: string, next: () => number): string {
  const handleOf = new Map<string, number>();
  for (const [, attrs] of prompt.matchAll(/<source\b([^>]*)>/g)) {
    const url = /\burl="([^"]*)"/.exec(attrs)?.[1];
    const id = /\bid="S(\d+)"/.exec(attrs)?.[1];
    if (url && id) handleOf.set(unescapeAttr(url), Number(id));
  }
  const styled = (n: number) => CITE_STYLES[next() % CITE_STYLES.length](n);
  return text
    .replace(/\[[^\]\n]*\]\((https?:\/\/[^)\s]+)\)\[[^\]\n]*\]\((https?:\/\/[^)\s]+)\)/g, (whole, a: string, b: string) => {
      const [x, y] = [handleOf.get(a), handleOf.get(b)];
      return x && y && y === x + 1 ? `[S${x}-S${y}]` : whole;
    })
    .replace(/\[[^\]\n]*\]\((https?:\/\/[^)\s]+)\)/g, (whole, url: string) => {
      const n = handleOf.get(url);
      return n ? styled(n) : whole;
    })
    .replace(/\[S(\d+)\]\[S(\d+)\]/g, (whole, a: string, b: string) => (Number(b) === Number(a) + 1 ? `[S${a}-S${b}]` : whole))
    .replace(/\[S(\d+)\](?![-(])/g, (_, n: string) => styled(Number(n)));
}

/** The URLs of a report writer's prompt's <source id="S2" url="…"> elements, in order. */
function promptSourceUrls(prompt: string): string[] {
  return [...prompt.matchAll(/<source\b([^>]*)>/g)].flatMap(([, attrs]) => {
    const url = /\burl="([^"]*)"/.exec(attrs)?.[1];
    return url ? [unescapeAttr(url)] : [];
  });
}

/** Every third citation link of a report to the next source of its prompt instead (mode miscite). */
export function miscited(text: string, prompt: string): string {
  const urls = promptSourceUrls(prompt);
  if (urls.length < 2) return text;
  let n = 0;
  return text.replace(/\[([^\]\n]*)\]\((https?:\/\/[^)\s]+)\)/g, (whole, label: string, url: string) => {
    const at = urls.indexOf(url);
    if (at === -1 || ++n % 3 !== 0) return whole;
    return `[${label}](${urls[(at + 1) % urls.length]})`;
  });
}

/** A citation as the writers give it: a link "[1](https://…)" or a handle "[S2]". */
const CITATION_MARK = /\s*\[[^\]\n]+\](?:\((?:https?:\/\/|#)[^)\s]+\))?/g;

/**
 * Each prose paragraph of two sentences or more that cites, rewritten by `place` from its text without its
 * citations and the citations it had (each once, in order); other lines as they are.
 */
function recitedParagraphs(text: string, place: (bare: string, marks: string[]) => string): string {
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*(#|[-*+]\s|\d+[.)]\s|\||>|```)/.test(line) || (line.match(/[.!?](\s|$)/g) ?? []).length < 2) return line;
      const marks = [...new Set((line.match(CITATION_MARK) ?? []).map((m) => m.trim()))];
      if (marks.length === 0) return line;
      return place(line.replace(CITATION_MARK, "").replace(/\s+([.,;:!?])/g, "$1").trimEnd(), marks);
    })
    .join("\n");
}

/** Each prose paragraph of two sentences or more cited once, at its end (mode paragraph-cites). */
export function paragraphCitations(text: string): string {
  return recitedParagraphs(text, (bare, marks) => {
    const end = /[.!?]$/.test(bare) ? bare.slice(-1) : "";
    return `${end ? bare.slice(0, -1) : bare} ${marks.join("")}${end}`;
  });
}

/** Each prose paragraph of two sentences or more with its citations on a "Sources:" line under it (mode sources-lines). */
export function sourcesLines(text: string): string {
  return recitedParagraphs(text, (bare, marks) => `${bare}\nSources: ${marks.join(", ")}`);
}

/** Citations at the end of a list item: links "[1](https://…)" or handles "[S2]", any number of them. */
const TRAILING_CITATIONS = /^(.*?)((?:\s*\[[^\]\n]+\](?:\([^)\s]+\))?)+)\s*([.!?]?)\s*$/;

/** Each run of bulleted list items as a table (mode tables): "| Finding | Source |", the citations in the Source column. */
export function findingsTables(text: string): string {
  const out: string[] = [];
  let inTable = false;
  for (const line of text.split("\n")) {
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (!item) {
      inTable = false;
      out.push(line);
      continue;
    }
    if (!inTable) out.push("| Finding | Source |", "| --- | --- |");
    inTable = true;
    const m = TRAILING_CITATIONS.exec(item[1]);
    const [finding, cites] = m ? [`${m[1].trim()}${m[3]}`, m[2].trim()] : [item[1].trim(), ""];
    out.push(`| ${finding.replace(/\|/g, "\\|")} | ${cites} |`);
  }
  return out.join("\n");
}

/** A value written as loose JSON (see the mode): 0 JavaScript's, 1 Python's, 2 JSON with a block comment. */
function looseJson(value: unknown, variant: number, indent = ""): string {
  const inner = `${indent}  `;
  if (value === null) return variant === 1 ? "None" : "null";
  if (typeof value === "boolean") return variant === 1 ? (value ? "True" : "False") : String(value);
  if (typeof value === "string") {
    if (variant === 0) return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")}'`;
    // Line breaks and tabs raw inside the string.
    return JSON.stringify(value).replace(/\\(.)/g, (escape, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : escape));
  }
  if (Array.isArray(value)) return value.length === 0 ? "[]" : `[\n${value.map((v) => `${inner}${looseJson(v, variant, inner)},`).join("\n")}\n${indent}]`;
  if (typeof value === "object") {
    const key = (k: string) => (variant === 0 && /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    const comment = indent || variant === 1 ? [] : [variant === 0 ? `${inner}// the reply` : `${inner}/* the reply */`];
    const lines = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${inner}${key(k)}: ${looseJson(v, variant, inner)},`);
    return `{\n${[...comment, ...lines].join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The `sloppy` option's text: the JSON in ```json fences with prose before and after. */
export function sloppyJson(text: string): string {
  return `Sure! Here is the JSON you asked for:\n\n\`\`\`json\n${text}\n\`\`\`\n\nLet me know if you need anything else.`;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The reasoning a model writes before its reply, with REASONING_MARKER. With braces (a model planning
 * a JSON reply): "I'll answer {"queries": [...]}" and a complete draft object that is not the answer,
 * so that taking the first brace (or the first object) of the text gets the wrong thing.
 */
/** Reasoning blocks' markers as models' templates write them: <think>, Magistral's [THINK], Seed-OSS's <seed:think>. */
const THINK_MARKERS = [
  ["<think>", "</think>"],
  ["[THINK]", "[/THINK]"],
  ["<seed:think>", "</seed:think>"],
] as const;

export function reasoningText({ agent, text, json }: Pick<MisbehaveInput, "agent" | "text" | "json">, braces: boolean): string {
  const opening = `Okay, this is the ${agent} step (${REASONING_MARKER} check first).`;
  if (!json) {
    return braces
      ? `${opening} A Markdown text is wanted, with sections like {Key findings} and {Open questions}, every fact cited. Right, writing it now.`
      : `${opening} A Markdown text is wanted, with a section for the key findings and one for the open questions, every fact cited. Right, writing it now.`;
  }
  if (!braces) return `${opening} The reply is one JSON object with the fields the schema lists; I fill each from the prompt and keep it short. Right, writing it now.`;
  const value = parseOrUndefined(text);
  const key = value && typeof value === "object" && !Array.isArray(value) ? (Object.keys(value)[0] ?? "result") : "result";
  return `${opening} I'll answer {"${key}": [...]} and fill it from the prompt. A first draft: {"${key}": "draft"}. Wait, every { needs its } and the schema's fields. Right, writing it now.`;
}

// ---------------------------------------------------------------------------------------------------
// The transforms, each pure (the variant number picks among a habit's forms).

function transformLeaf(mode: "enum-case" | "worded-enums" | "retyped" | "near-quotes" | "generic", leaf: Leaf, variant: () => number): unknown {
  const kind = leafKind(leaf);
  const value = leaf.value;
  switch (mode) {
    case "enum-case":
      // A yes/no as models write it, in turn: "Yes"/"No", then "true"/"false" as text.
      if (typeof value === "boolean") return variant() % 2 === 1 ? (value ? "Yes" : "No") : String(value);
      return kind === "enum" || kind === "handle" ? enumCase(value as string, variant()) : value;
    case "worded-enums":
      return kind === "enum" ? wordedEnum(value as string, variant()) : value;
    case "near-quotes":
      return kind === "quote" ? nearQuote(value as string, variant()) : value;
    case "retyped":
      return retyped(kind, value, variant);
    case "generic":
      return generic(kind, leaf);
  }
}

/** "supported" → "Supported", then " SUPPORTED " (a form that changes nothing is skipped). */
/**
 * A reply holding one list of tagged items ({"items": [{"content": "…", "queries": ["Q1"]}]}) as groups by tag
 * (mode grouped): {"Q1": ["…"], "other": [untagged]}; undefined for any other reply.
 */
export function groupedByTag(value: unknown): { key: string; groups: Record<string, string[]> } | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length !== 1 || !Array.isArray(entries[0][1]) || entries[0][1].length === 0) return undefined;
  const [key, list] = entries[0] as [string, unknown[]];
  const groups: Record<string, string[]> = {};
  for (const item of list) {
    const fields = typeof item === "object" && item !== null ? Object.values(item) : [];
    const text = fields.find((f): f is string => typeof f === "string");
    const tags = fields.find((f): f is string[] => Array.isArray(f) && f.every((t) => typeof t === "string"));
    if (fields.length !== 2 || text === undefined || tags === undefined) return undefined;
    for (const tag of tags.length ? tags : ["other"]) (groups[tag] ??= []).push(text);
  }
  return { key, groups };
}

/**
 * A list of texts as text (mode list-text): one item as itself, none as "", choices joined with ", ", free texts
 * as a numbered list in one text ("1. …\n2. …"); other lists stay.
 */
export function listAsText(list: unknown[], items: JsonSchema): unknown {
  const types = Array.isArray(items.type) ? items.type : [items.type];
  if (!types.includes("string") || !list.every((item) => typeof item === "string")) return list;
  if (list.length <= 1) return list[0] ?? "";
  return items.enum || items.const !== undefined ? list.join(", ") : list.map((item, i) => `${i + 1}. ${item}`).join("\n");
}

/** A judgement in words (mode worded-enums): "unsupported" → "not supported", "partial" → "partially", else "fully x" or "X (as judged)". */
export function wordedEnum(value: string, variant: number): string {
  const words = value.replace(/_/g, " ");
  const negated = /^un(.+)$/i.exec(words);
  if (negated) return `not ${negated[1]}`;
  if (/^partial$/i.test(words)) return "partially";
  return variant % 2 === 1 ? `fully ${words}` : `${words.charAt(0).toUpperCase()}${words.slice(1).toLowerCase()} (as judged)`;
}

export function enumCase(value: string, variant: number): string {
  const capitalised = value.charAt(0).toUpperCase() + value.slice(1).toLowerCase();
  return variant % 2 === 1 && capitalised !== value ? capitalised : ` ${value.toUpperCase()} `;
}

const swapCase = (text: string) => (text === text.toUpperCase() ? text.toLowerCase() : text.toUpperCase());

export function retyped(kind: LeafKind, value: unknown, variant: () => number): unknown {
  const text = String(value);
  switch (kind) {
    case "handle":
      return [swapCase(text), `[${text}]`, `"${text.toLowerCase()}"`, `${text} (as listed)`, `id: ${text}`, text.replace(/(\d+)$/, "0$1")][variant() % 6];
    case "id":
      return [swapCase(text), `[${text}]`, `"${text}"`][variant() % 3];
    case "int-id":
      return text;
    case "url":
      return retypedUrl(text, variant());
    case "file":
      return variant() % 2 === 1 ? tableName(text) : text.toUpperCase();
    default:
      return value;
  }
}

/** A URL as a model retypes it: scheme and host in upper case, a trailing slash, or a tracking parameter. */
export function retypedUrl(url: string, variant: number): string {
  switch (variant % 3) {
    case 1:
      return url.replace(/^(https?:\/\/[^/?#]+)/i, (origin) => origin.toUpperCase());
    case 2:
      return url.replace(/^([^?#]*?)\/?(?=[?#]|$)/, "$1/");
    default:
      return url.replace(/^([^#]*)/, (head) => `${head}${head.includes("?") ? "&" : "?"}utm_source=x`);
  }
}

/** A file's table name: `Sales 2024.csv` → `sales_2024`. */
export function tableName(file: string): string {
  return file
    .replace(/\.[a-z0-9]{1,7}$/i, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

/**
 * A quote as a model copies it, near-verbatim: commas dropped (or one added), typographic quotes (or
 * the whole in them), an ellipsis for a middle part, a line break inside.
 */
export function nearQuote(quote: string, variant: number): string {
  const words = quote.split(" ");
  switch (variant % 4) {
    case 1:
      return quote.includes(",") ? quote.replace(/,/g, "") : words.length > 2 ? [...words.slice(0, 2).map((w, i) => (i === 1 ? `${w},` : w)), ...words.slice(2)].join(" ") : `${quote},`;
    case 2: {
      const typographic = quote.replace(/"([^"]*)"/g, "“$1”").replace(/'/g, "’");
      return typographic !== quote ? typographic : `“${quote}”`;
    }
    case 3: {
      // A fifth of the words from the middle (at least one), so that most of them stay.
      if (words.length < 4) return `${quote}…`;
      const cut = Math.max(1, Math.floor(words.length / 5));
      const from = Math.floor((words.length - cut) / 2);
      return [...words.slice(0, from), "…", ...words.slice(from + cut)].join(" ");
    }
    default: {
      if (words.length < 2) return `${quote}\n`;
      const middle = Math.floor(words.length / 2);
      return `${words.slice(0, middle).join(" ")}\n${words.slice(middle).join(" ")}`;
    }
  }
}

function generic(kind: LeafKind, { value, schema, key, position }: Leaf): unknown {
  switch (kind) {
    case "handle":
      return (schema.enum ?? [schema.const])[0];
    case "int-id":
      return position ?? 0;
    case "id":
      return `${idLabel(key)} ${(position ?? 0) + 1}`;
    case "url":
      return genericUrl(value as string);
    case "file":
      return datasetDescription(value as string);
    case "quote":
      return paraphrase(value as string);
    default:
      return value;
  }
}

/** What a generic model calls an id field's things: taskId → "Task", evidenceTaskIds → "Task", key → "Key". */
export function idLabel(key: string): string {
  const base = key.replace(/_?ids?$/i, "") || "item";
  const last = base.split(/(?=[A-Z])|_/).filter(Boolean).at(-1) ?? "item";
  return last.charAt(0).toUpperCase() + last.slice(1).toLowerCase();
}

/** The URL with its path in lower case and a trailing slash. */
export function genericUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.pathname = parsed.pathname.toLowerCase().replace(/\/?$/, "/");
    return parsed.toString();
  } catch {
    return url;
  }
}

/** "expr.csv" → "Expr data", "sales_2024.csv" → "Sales 2024 data": the dataset described, not named. */
export function datasetDescription(file: string): string {
  const words = tableName(file).replace(/_/g, " ").trim() || "the uploaded";
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} data`;
}

/** The quote in other words: each pair of neighbouring words swapped, no end punctuation; never verbatim. */
export function paraphrase(quote: string): string {
  const words = quote.replace(/[.!?]+["”’]?$/, "").split(/\s+/).filter(Boolean);
  if (words.length < 2) return quote ? `In short, ${quote.toLowerCase()}` : quote;
  const swapped: string[] = [];
  for (let i = 0; i < words.length; i += 2) swapped.push(...(i + 1 < words.length ? [words[i + 1], words[i]] : [words[i]]));
  const text = swapped.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---------------------------------------------------------------------------------------------------
// Counts.

/** Arrays whose length the prompt asks for: the tree's queries and questions, Deep Research's tasks. */
const COUNTED = ["queries", "questions", "tasks", "suggestedNextSteps", "initialTasks"];

const isCounted = (value: unknown) =>
  value !== null && typeof value === "object" && COUNTED.some((key) => Array.isArray((value as Record<string, unknown>)[key]) && ((value as Record<string, unknown[]>)[key]).length > 0);

/**
 * One item more (a restyled copy of the first) or fewer (the first dropped, so that a plan's last
 * task, its ANALYSIS one, stays), in every counted array of the reply's object; one item is never
 * made none. (The queryCountOverride option is the tree's query counts alone, and by more than one.)
 */
export function countOff(value: unknown, delta: 1 | -1): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of COUNTED) {
    const list = out[key];
    if (!Array.isArray(list) || list.length === 0) continue;
    out[key] = delta < 0 && list.length > 1 ? list.slice(1) : [...list, restyled(list[0])];
  }
  return out;
}

/** A copy of an item asking for a little more: "… (in more detail)" on its query, objective or question. */
function restyled(item: unknown): unknown {
  const more = (text: string) => text.replace(/([?.!]?)$/, " (in more detail)$1");
  if (typeof item === "string") return more(item);
  if (item === null || typeof item !== "object") return item;
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, typeof v === "string" && /^(query|objective|question)$/.test(k) ? more(v) : v]));
}

/** A text reply past this length is cut (shorter ones fit any limit). */
const CUT_OFF_FROM = 400;

/**
 * The reply as a server with a low output limit sends it: the first attempt cut mid-word at 45%; asked
 * to continue (after `earlier`), the reply from the start of the sentence that was cut (models
 * restart it), cut again at 75% while the earlier reply was short of 70%, else to its end.
 */
/** The line a looping reply repeats: its last of 20 characters or more. */
export function loopLine(text: string): string | undefined {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length >= 20)
    .at(-1);
}

function cutOff(text: string, earlier: string | null): MisbehaveOutput {
  const out = (t: string, cut: boolean): MisbehaveOutput => ({ text: t, reasoning: null, finishReason: cut ? "length" : null });
  if (text.length < CUT_OFF_FROM) return out(text, false);
  if (earlier === null) return out(text.slice(0, Math.floor(text.length * 0.45)), true);
  if (!text.startsWith(earlier)) return out(text, false);
  const restart = earlier.search(/[^.!?\n]*$/);
  const end = earlier.length < text.length * 0.7 ? Math.floor(text.length * 0.75) : text.length;
  return out(text.slice(restart, end), end < text.length);
}
