// Every LLM call goes through here: token accounting, structured output with zod validation and
// bounded repair, and classification of failures. The global concurrency limit is applied per HTTP
// exchange by the provider's fetch (./http.ts), in the lane and at the priority given as `schedule`.
//
// Quarry's own prompts (structured and plain calls) go to the AI SDK provider's model directly
// (`exchange`: its language model interface, `doGenerate`): the provider builds the request, sends it
// through the retrying fetch and parses and validates the reply, as under generateText. generateText
// itself adds an agent loop (steps, tools, telemetry spans, output parsing, copies of every step's
// result) that these one-request calls never use, and it cost ~0.75 ms of CPU per call: a quarter of
// the server's CPU per LLM call in a (5, 5) research (bench/README.md, 2026-11-29). Clients' own
// conversations (generateChat) and streamed replies (streamText) still go through the SDK's functions,
// which convert arbitrary messages and streams.
import { generateText, jsonSchema, NoObjectGeneratedError, Output, streamText, type ModelMessage } from "ai";
import { z } from "zod";
import { getEnv } from "../env";
import type { WaitOptions } from "../concurrency";
import { storable, storableDeep } from "../validation/text";
import { conform, type JsonSchemaNode } from "./conform";
import { extractJson } from "./json";
import { reasoningFilter, stripReasoning } from "./reasoning";
import { answersInReasoning, noteAnswerInReasoning, replyFromReasoning } from "./reasoning-field";
import { withoutLoop } from "./repetition";
import { fenceFilter, unwrapReport } from "./fence";
import { describeLlmError, LlmUnavailableError, refusalText, StructuredOutputError } from "./errors";
import { isOwnershipLoss, ownershipLost } from "../errors";
import { assertOwned } from "../ownership";
import { researchModel, type ChatModel } from "./providers";
import { serverKey } from "./server-key";
import { reasoningRoom, spentThinking } from "./reasoning-room";
import { callTokens, estimatedTokens, toTokenCount, type TokenCount, type UsageSink } from "./usage";
import { notePromptTokens } from "./context-window";
import { contextWindow, heldToWindow, learnContextWindow, learnCutWindow, noteContextLimit, refusesLengthUnnamed } from "./context-limit";

export interface CallOptions {
  /** Agent name, also the first line of its system prompt. */
  agent: string;
  system: string;
  prompt: string;
  onUsage?: UsageSink;
  signal?: AbortSignal;
  /** Where the call waits for an LLM slot: its run's lane and its priority there. */
  schedule?: WaitOptions;
  /**
   * A token budget: asked before every HTTP exchange (repairs too) with the text about to be sent, and
   * the room a reasoning model needs beyond the reply (./reasoning-room.ts); returns the reply's max
   * output tokens, or throws to stop the call (lib/answer/budget.ts).
   */
  budget?: (outgoingText: string, reasoningTokens: number) => number;
  /**
   * Told when the prompt went out held to the model's context window, a part of it cut
   * (./context-limit.ts's heldToWindow): the reply was given less than the caller wrote.
   */
  onHeld?: () => void;
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return Boolean(signal?.aborted) || (error instanceof Error && error.name === "AbortError");
}

function rethrow(error: unknown, signal?: AbortSignal): never {
  if (isAbort(error, signal)) throw signal?.reason ?? error;
  // A prompt longer than the server's context window: the window is remembered (./context-limit.ts).
  noteContextLimit(error);
  // Work another process owns now (lib/ownership.ts: a call that serves several pieces of work asks each): no LLM failure.
  if (isOwnershipLoss(error)) throw error;
  if (error instanceof StructuredOutputError || error instanceof LlmUnavailableError) throw error;
  throw new LlmUnavailableError(error);
}

type CallSettings = Parameters<ChatModel["doGenerate"]>[0];
type ResponseFormat = CallSettings["responseFormat"];

interface StructuredSpec {
  /** The response format the AI SDK's structured output sends for the schema (`Output.object`'s own). */
  responseFormat: ResponseFormat;
  /** Its JSON Schema as text: shown in a repair request, and counted in a budget's estimate of what is sent. */
  jsonSchema: string;
  /** The same JSON Schema, that a reply is brought to (./conform.ts) before it is validated. */
  shape: JsonSchemaNode;
}

/** Each schema's response format, converted once: converting costs more than the call's own work. */
const structuredSpecs = new WeakMap<z.ZodType, Promise<StructuredSpec>>();

function structuredSpec(schema: z.ZodType, agent: string): Promise<StructuredSpec> {
  let spec = structuredSpecs.get(schema);
  if (!spec) {
    spec = Promise.resolve(Output.object({ schema, name: agent.replace(/[^a-zA-Z0-9_-]/g, "_") }).responseFormat).then((responseFormat) => {
      const shape = (responseFormat?.type === "json" ? responseFormat.schema : {}) as JsonSchemaNode;
      return { responseFormat, jsonSchema: JSON.stringify(shape ?? {}), shape: shape ?? {} };
    });
    structuredSpecs.set(schema, spec);
  }
  return spec;
}

type Turn = { role: "user" | "assistant"; content: string };

/**
 * One request and its reply through the AI SDK provider's model (see the header): the reply's text
 * (its text parts) and its token usage. Errors are the provider's own (APICallError and the like).
 */
async function exchange(o: { system: string; turns: Turn[]; responseFormat?: ResponseFormat; maxOutputTokens?: number; signal?: AbortSignal; schedule?: WaitOptions; onHeld?: () => void }): Promise<{ text: string; finishReason: string; usage: TokenCount }> {
  // A prompt the server cut or refused as longer than its context window: sent again held to the
  // window it showed (./context-limit.ts), at most twice; the cut reply's tokens are counted with it.
  let wasted: TokenCount | undefined;
  let sent: Turn[] | undefined;
  let failure: { error: unknown } | undefined;
  // The window this call's cut showed, before the server's is sure (./context-limit.ts's learnCutWindow).
  let cutTo: number | undefined;
  for (let resent = 0; ; resent++) {
    const window = minWindow(contextWindow(), cutTo);
    const turns = window === undefined ? o.turns : heldToWindow(o.system, o.turns, schemaTokens(o.responseFormat), window);
    // The window it showed would not change the prompt (a refusal naming a window the prompt is within): its failure stands.
    if (failure && turns === sent) throw failure.error;
    sent = turns;
    if (turns !== o.turns) o.onHeld?.();
    const sentChars = turns.reduce((n, turn) => n + turn.content.length, o.system.length);
    const prompt: CallSettings["prompt"] = [{ role: "system", content: o.system }];
    for (const turn of turns) prompt.push({ role: turn.role, content: [{ type: "text", text: turn.content }] });
    let result;
    try {
      result = await researchModel(o.schedule).doGenerate({ prompt, responseFormat: o.responseFormat, maxOutputTokens: o.maxOutputTokens, abortSignal: o.signal });
    } catch (error) {
      if (resent >= 2 || o.signal?.aborted) throw error;
      // The window a refusal names; else, for one that names none (Ollama's), half of what was sent.
      if (!noteContextLimit(error)) {
        if (!refusesLengthUnnamed(error)) throw error;
        learnContextWindow(Math.floor(estimatedTokens(sentChars) * 0.5));
      }
      failure = { error };
      continue;
    }
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    const reasoningChars = result.content.reduce((n, part) => n + (part.type === "reasoning" ? part.text.length : 0), 0);
    const usage = callTokens({ input: result.usage.inputTokens.total, output: result.usage.outputTokens.total }, sentChars, text.length + reasoningChars);
    const total = wasted ? { promptTokens: wasted.promptTokens + usage.promptTokens, completionTokens: wasted.completionTokens + usage.completionTokens, calls: wasted.calls + usage.calls } : usage;
    const cut = notePromptTokens(sentChars, result.usage.inputTokens.total);
    if (cut === undefined || resent >= 2) return { text, finishReason: result.finishReason.unified, usage: total };
    cutTo = learnCutWindow(cut, window);
    wasted = total;
  }
}

const minWindow = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

/** A response format's schema in tokens, as a window's room counts it. */
function schemaTokens(format: ResponseFormat): number {
  return format?.type === "json" && format.schema ? estimatedTokens(JSON.stringify(format.schema).length) : 0;
}

/**
 * How the configured LLM server takes a structured reply's format: response_format json_schema (the
 * schema sent once, there), json_object (the schema in the system prompt), or no response_format (the
 * schema in the system prompt). Every server starts at the first; one that rejects a format (an HTTP
 * 400 naming it: DeepSeek's API takes only json_object, some local servers and hosted models no
 * response_format) is asked in the next from then on, for the life of the process. One that ignores
 * response_format without a word (Anthropic's OpenAI-compatible endpoint: "response_format: Ignored")
 * has its model guess the reply's shape, and each call needed a repair that showed the schema: after
 * two such calls the schema goes in the system prompt too, response_format kept ("schema+prompt").
 */
type FormatSupport = "schema" | "schema+prompt" | "object" | "none";
const formatSupport = new Map<string, FormatSupport>();
/** Calls per server whose first reply, sent with the schema only as response_format, fitted only once a repair showed it. */
const schemaUnseen = new Map<string, number>();

/** A call sent with the schema as response_format alone was read only after its repair showed the schema: the second such steps the server up. */
function noteSchemaUnseen(key: string): void {
  const n = (schemaUnseen.get(key) ?? 0) + 1;
  schemaUnseen.set(key, n);
  if (n < 2 || (formatSupport.get(key) ?? "schema") !== "schema") return;
  formatSupport.set(key, "schema+prompt");
  console.warn("[quarry] the LLM server's replies fitted their JSON Schema only once a repair request showed it: it ignores response_format. The schema goes in the system prompt too from now on.");
}

/**
 * A 400 (or 422) whose message names the response format: the server does not take it (DeepSeek's
 * "This response_format type is unavailable now", its reasoner's "does not support Json Output"; Gemini's OpenAI endpoint refuses a schema's keywords
 * as "Unknown name \"$schema\" at 'generation_config.response_schema'").
 */
export function rejectsResponseFormat(error: unknown): boolean {
  return /response[_ ]?(?:format|schema)|json[_ ]?schema|json[_ ]?object|json[_ ]?(?:output|mode)|structured[_ ]?output/i.test(refusalText(error) ?? "");
}

/**
 * `send` in the richest format the server takes (see formatSupport): a refusal that names the format
 * steps the server down and sends again; any other failure is the call's.
 */
async function inFormatTaken<T>(signal: AbortSignal | undefined, send: (support: FormatSupport) => Promise<T>): Promise<T> {
  const key = serverKey();
  for (;;) {
    const support = formatSupport.get(key) ?? "schema";
    try {
      return await send(support);
    } catch (error) {
      if (support === "none" || signal?.aborted || !rejectsResponseFormat(error)) throw error;
      const next = support === "object" ? "none" : "object";
      // Another call may have stepped down meanwhile: only the first says so.
      if ((formatSupport.get(key) ?? "schema") === support) {
        formatSupport.set(key, next);
        console.warn(`[quarry] the LLM server rejected response_format ${support === "object" ? "json_object" : "json_schema"} (${describeLlmError(error)}): structured replies are asked ${next === "object" ? "as json_object" : "without a response_format"}, with the JSON Schema in the prompt.`);
      }
    }
  }
}

/** The exchange of a structured call in the format the server takes. */
function exchangeStructured(o: Parameters<typeof exchange>[0], spec: StructuredSpec): Promise<Awaited<ReturnType<typeof exchange>>> {
  return inFormatTaken(o.signal, (support) => {
    if (support === "schema") return exchange({ ...o, responseFormat: spec.responseFormat });
    const system = `${o.system}\nThe response format's JSON Schema:\n${spec.jsonSchema}`;
    return exchange({ ...o, system, responseFormat: support === "schema+prompt" ? spec.responseFormat : support === "object" ? { type: "json" } : undefined });
  });
}

export async function generateStructured<T>(options: CallOptions & { schema: z.ZodType<T> }): Promise<T> {
  const { agent, schema, signal, schedule } = options;
  const env = getEnv();
  const spec = await structuredSpec(schema, agent);
  const { jsonSchema, shape } = spec;
  // The JSON Schema goes out once, as response_format (it used to be in the system prompt too: ~300
  // tokens per call), or in the system prompt where the server does not take it there. A model that
  // ignores response_format is shown the schema in the repair request.
  const system = `${options.system}\n\nReply with one JSON object only, matching the response format's JSON Schema.`;
  const messages: Turn[] = [{ role: "user", content: options.prompt }];
  let lastProblem = "";
  const key = serverKey();
  // Sent with the schema only as response_format, and its first reply did not fit it (see noteSchemaUnseen).
  const schemaOnlyAsFormat = (formatSupport.get(key) ?? "schema") === "schema";
  let firstUnfit = false;

  for (let attempt = 0; attempt <= env.LLM_REPAIR_ATTEMPTS; attempt++) {
    // Before the exchange: a budget that says no ends the call as it is, not as an LLM failure.
    const maxOutputTokens = options.budget?.(outgoing(system, messages, jsonSchema), reasoningRoom());
    let reply = await settledExchange(options, () => exchangeStructured({ system, turns: messages, maxOutputTokens, signal, schedule, onHeld: options.onHeld }, spec));
    // A reply the server cut at its output limit is continued, as a plain one is, and the pieces parsed
    // as one: asked again, it would be cut again where it was. The continuation goes without a
    // response_format (a grammar would make it start a new object).
    let text = stripReasoning(reply.text);
    // One looping at the limit (./repetition.ts) is not continued: it would loop on; it is repaired (asked again).
    for (let part = 1; cutByServer(reply, maxOutputTokens) && text.trim() && part <= MAX_CONTINUATIONS && withoutLoop(text) === undefined; part++) {
      const turns = plainTurns(options.prompt, text, messages.slice(1));
      const limit = options.budget?.(outgoing(system, turns), reasoningRoom());
      reply = await settledExchange(options, () => exchange({ system, turns, maxOutputTokens: limit, signal, schedule, onHeld: options.onHeld }));
      text += joinContinued(text, stripReasoning(reply.text));
    }
    // Parsed and validated here (what the SDK's structured output did, and more): reasoning blocks
    // are removed, a reply in code fences or with prose around its JSON is recovered and brought to
    // the schema's shape (./conform.ts); else a repair is asked for. A reply is outside text: a
    // cut-off emoji leaves a lone surrogate, and a model can emit NUL.
    // A cap spent thinking, nothing written: asked again as it was, with room to think (no repair to ask for).
    // A whole reply the server sent in the reasoning field (./reasoning-field.ts): taken when it is valid for the schema.
    const answer = replyFromReasoning(reply.text);
    if (answer !== undefined) {
      const parsed = parseReply(schema, shape, answer, attempt === env.LLM_REPAIR_ATTEMPTS);
      if (parsed.ok) {
        noteAnswerInReasoning(serverKey());
        return storableDeep(parsed.value);
      }
    }
    if (spentThinking(reply, maxOutputTokens, text)) {
      lastProblem = "the model spent its whole output limit thinking and wrote nothing";
      continue;
    }
    const parsed = parseReply(schema, shape, text, attempt === env.LLM_REPAIR_ATTEMPTS);
    if (parsed.ok) {
      if (firstUnfit) noteSchemaUnseen(key);
      return storableDeep(parsed.value);
    }
    if (attempt === 0 && schemaOnlyAsFormat && unshaped(text, shape)) firstUnfit = true;
    lastProblem = parsed.problem;
    messages.push(
      { role: "assistant", content: text.slice(0, 4000) },
      {
        role: "user",
        content: `Your previous reply was not valid for the required JSON Schema (${lastProblem.slice(0, 600)}). Reply again with only the corrected JSON object: no code fences, no prose. The JSON Schema:\n${jsonSchema}`,
      },
    );
  }
  throw new StructuredOutputError(agent, lastProblem);
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * A plain reply's text: without its reasoning; or, from a server known to send whole replies in the
 * reasoning field (./reasoning-field.ts), a blank reply's reasoning.
 */
function replyText(raw: string): string {
  return (answersInReasoning(serverKey()) ? replyFromReasoning(raw) : undefined) ?? stripReasoning(raw);
}

/** Says that a reply looped at the output limit (./repetition.ts), which is kept up to the loop's first copy. */
function warnLooped(agent: string): void {
  console.warn(`[quarry] ${agent}: the reply repeated one passage until the output limit stopped it; it is kept up to the passage's first copy.`);
}

/**
 * A reply with no sign of the schema's shape: no JSON, or an object without the schema's required keys
 * (a model that never saw the schema guesses them); not one whose values are off (a count, a cut list).
 */
function unshaped(text: string, shape: JsonSchemaNode): boolean {
  if (!text.trim()) return false;
  let value: unknown;
  try {
    value = conform(extractJson(stripReasoning(text)), shape);
  } catch {
    return true;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return true;
  return (shape.required ?? []).some((key) => !(key in value));
}

/**
 * A reply's value, validated. Items of a list that stay invalid after conforming are dropped (a
 * verdict for a sentence that does not exist, a query without text) when every list keeps one item,
 * or on the last attempt whatever is left: the caller then has what the model got right, and marks
 * what is missing, instead of losing the whole call.
 */
function parseReply<T>(schema: z.ZodType<T>, shape: JsonSchemaNode, text: string, last: boolean): Parsed<T> {
  let value: unknown;
  try {
    value = conform(extractJson(stripReasoning(text)), shape);
  } catch {
    return { ok: false, problem: text.trim() ? "the reply was not valid JSON" : "the reply was empty" };
  }
  const first = schema.safeParse(value);
  if (first.success) return { ok: true, value: first.data };
  const problem = z.prettifyError(first.error);
  const pruned = withoutInvalidItems(value, first.error.issues);
  if (pruned && (last || pruned.everyListKept)) {
    const second = schema.safeParse(pruned.value);
    if (second.success) return { ok: true, value: second.data };
  }
  return { ok: false, problem };
}

/** The value without the list items that issues point into; undefined when an issue is outside any list. */
function withoutInvalidItems(value: unknown, issues: readonly z.core.$ZodIssue[]): { value: unknown; everyListKept: boolean } | undefined {
  const copy = structuredClone(value);
  const drops = new Map<unknown[], Set<number>>();
  for (const issue of issues) {
    let node: unknown = copy;
    let hit: { list: unknown[]; index: number } | undefined;
    for (const key of issue.path) {
      if (Array.isArray(node) && typeof key === "number") hit = { list: node, index: key };
      node = node !== null && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined;
    }
    if (!hit) return undefined;
    drops.set(hit.list, (drops.get(hit.list) ?? new Set()).add(hit.index));
  }
  let everyListKept = true;
  for (const [list, indexes] of drops) {
    for (const index of [...indexes].sort((a, b) => b - a)) list.splice(index, 1);
    if (list.length === 0) everyListKept = false;
  }
  return { value: copy, everyListKept };
}

/** Everything sent in one exchange, for a budget's estimate: the system prompt, the messages and the schema (as response_format). */
function outgoing(system: string, messages: Turn[], jsonSchema = ""): string {
  return [system, jsonSchema, ...messages.map((m) => m.content)].join("\n");
}

/**
 * A plain reply that is blank once its reasoning is removed (an empty reply, or a reasoning model that
 * only thought before its limit) is asked for again, as a structured one is repaired: nothing reads
 * an empty report or answer as a result.
 */
async function untilNotBlank(call: () => Promise<string>): Promise<string> {
  let text = "";
  for (let attempt = 0; attempt <= getEnv().LLM_REPAIR_ATTEMPTS && !text.trim(); attempt++) text = await call();
  return text;
}

export function generatePlainText(options: CallOptions): Promise<string> {
  return untilNotBlank(() => plainOnce(options));
}

/**
 * A plain reply (a report, a summary, a write-up) that the server cut at its output limit (finish
 * reason "length": TGI's and some hosted models' low default max_tokens, a provider's cap) is
 * continued: the model is shown what it wrote and asked to go on, up to MAX_CONTINUATIONS times, and
 * the pieces are joined (joinContinued). Not where Quarry's own limit cut it (cutByServer). A
 * structured reply is continued so too (generateStructured).
 */
const MAX_CONTINUATIONS = 4;
const CONTINUE_PROMPT = "Your reply was cut off by the output limit. Continue it exactly where it stops, mid-sentence if need be: no preamble, and nothing repeated.";

/**
 * Whether a reply ended at the server's output limit rather than at one Quarry set (an answer's token
 * budget, whose cut is the budget's): "length" with fewer tokens than Quarry allowed.
 */
function cutByServer(reply: { finishReason: string; usage: TokenCount }, maxOutputTokens: number | undefined): boolean {
  return reply.finishReason === "length" && (maxOutputTokens === undefined || reply.usage.completionTokens < maxOutputTokens * 0.9);
}

/**
 * The turns of a call: the prompt (and the turns after it: a repair's), then, for a continuation, what
 * the model wrote so far and the request to go on.
 */
function plainTurns(prompt: string, written: string, later: Turn[] = []): Turn[] {
  const turns: Turn[] = [{ role: "user", content: prompt }, ...later];
  if (written) turns.push({ role: "assistant", content: written }, { role: "user", content: CONTINUE_PROMPT });
  return turns;
}

/** The most characters of a continuation's start compared with the end of what came before it. */
const OVERLAP_WINDOW = 300;
/** An overlap shorter than this is taken as chance ("the " after "the "), not a repeat. */
const MIN_OVERLAP = 12;

/**
 * A continuation's text without what it repeats: models often restart the sentence that was cut
 * ("…grew 12% in 2023. Sales of the mark" + "Sales of the market rose…") or repeat its last words. Dropped:
 * the sentence cut at the end of `before`, where `next` starts with it whole (however short: a reply
 * that goes on correctly never starts with the whole of a sentence it is inside); else the longest start
 * of `next` that ends `before`, of at least MIN_OVERLAP characters (shorter ones may be chance).
 */
export function joinContinued(before: string, next: string): string {
  // The space between the two is the cut's: kept once (a continuation may begin with the space the cut text ended on).
  if (/\s$/.test(before)) next = next.trimStart();
  const window = before.slice(-OVERLAP_WINDOW);
  const cutSentence = window.slice(window.search(/[^.!?\n]*$/)).trimStart();
  const lead = next.length - next.trimStart().length;
  if (cutSentence.trim() && next.slice(lead).startsWith(cutSentence)) return next.slice(lead + cutSentence.length);
  for (let k = Math.min(next.length, window.length); k >= MIN_OVERLAP; k--) {
    if (window.endsWith(next.slice(0, k))) return next.slice(k);
  }
  return next;
}

async function plainOnce(options: CallOptions): Promise<string> {
  let written = "";
  for (let part = 0; part <= MAX_CONTINUATIONS; part++) {
    const turns = plainTurns(options.prompt, written);
    let maxOutputTokens: number | undefined;
    try {
      maxOutputTokens = options.budget?.(outgoing(options.system, turns), reasoningRoom());
    } catch (error) {
      // A budget spent by the reply so far ends it there: what was written is kept.
      if (part > 0) break;
      throw error;
    }
    const reply = await settledExchange(options, () => exchange({ system: options.system, turns, maxOutputTokens, signal: options.signal, schedule: options.schedule, onHeld: options.onHeld }));
    const text = replyText(reply.text);
    // A cap spent thinking leaves the reply blank: untilNotBlank asks again, with room to think.
    spentThinking(reply, maxOutputTokens, text);
    written += part === 0 ? text : joinContinued(written, text);
    if (!cutByServer(reply, maxOutputTokens) || !text.trim()) break;
    // Looping when the limit stopped it (./repetition.ts): kept up to the loop's first copy, not continued.
    const unlooped = withoutLoop(written);
    if (unlooped !== undefined) {
      warnLooped(options.agent);
      written = unlooped;
      break;
    }
  }
  return storable(unwrapReport(written));
}

/** One exchange with its usage begun and settled (a failed one settled with none, and rethrown). */
async function settledExchange<R extends { usage: TokenCount }>(options: CallOptions, send: () => Promise<R>): Promise<R> {
  const { onUsage, signal } = options;
  await onUsage?.begin?.();
  let settled = false;
  try {
    // Its begin was a round trip: a worker stopped meanwhile past its job's lock must not send it (lib/ownership.ts).
    assertOwned(signal);
    const reply = await send();
    settled = true;
    await onUsage?.(reply.usage);
    return reply;
  } catch (error) {
    if (settled) rethrow(error, signal);
    return settleFailed(onUsage, error, signal);
  }
}

/**
 * A begun call that failed: settled with no usage (a sink that counted it unsettled uncounts it), then
 * rethrown. One stopped because its work's process no longer owns it (a lost lease or job lock) is left
 * unsettled: counted, as at a crash, since its reply may have reached the provider (and been billed),
 * and the process that lost the work writes nothing more.
 */
async function settleFailed(onUsage: UsageSink | undefined, error: unknown, signal: AbortSignal | undefined): Promise<never> {
  if (onUsage?.begin && !ownershipLost(signal)) await onUsage({ promptTokens: 0, completionTokens: 0, calls: 0 });
  rethrow(error, signal);
}

/**
 * A streamed reply's pieces are handed on at most this often (the first at once, the rest together, and
 * never later than this after they arrived, however long the provider then pauses):
 * providers stream a token or a few words at a time, and each delta becomes an event that every
 * client watching the run receives and renders.
 */
const DELTA_INTERVAL_MS = 50;

/**
 * A streamed call's handlers: `onDelta` gets what arrived (pieces gathered over DELTA_INTERVAL_MS);
 * `onRestart`, when the reply starts over because the server cut its prompt without a word (what was
 * handed to onDelta is void: it answered a prompt without its instructions), before the new reply's
 * first delta. Without onRestart such a reply stands, and only the calls after it are held to the window.
 */
export type StreamHandlers = { onDelta: (delta: string) => void; onRestart?: () => void };

/** Streams text to its handlers; resolves with the whole text. */
export function streamPlainText(options: CallOptions & StreamHandlers): Promise<string> {
  return untilNotBlank(() => streamOnce(options));
}

/** Times a streamed reply starts over after its prompt was cut (held to a smaller window each time). */
const MAX_RESTARTS = 2;

/** Deltas gathered and handed on at most every DELTA_INTERVAL_MS (the first at once). */
function deltaGatherer(onDelta: (delta: string) => void) {
  let gathered = "";
  let handedOn = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const handOn = () => {
    clearTimeout(timer);
    timer = undefined;
    handedOn = performance.now();
    if (gathered) onDelta(gathered);
    gathered = "";
  };
  return {
    push(delta: string) {
      if (!delta) return;
      gathered += delta;
      const since = performance.now() - handedOn;
      if (since >= DELTA_INTERVAL_MS) handOn();
      else timer ??= setTimeout(handOn, DELTA_INTERVAL_MS - since);
    },
    /** Hands on what is gathered, now. */
    flush: handOn,
    stop: () => clearTimeout(timer),
  };
}

async function streamOnce(options: CallOptions & StreamHandlers): Promise<string> {
  // A fence around the whole reply is taken off (./fence.ts), across its continuations.
  let fence = fenceFilter();
  const out = deltaGatherer(options.onDelta);
  let text = "";
  let written = "";
  const emit = (delta: string) => {
    const shown = fence.push(delta);
    text += shown;
    out.push(shown);
  };
  // The window this reply's cut showed, before the server's is sure (./context-limit.ts's learnCutWindow).
  let cutTo: number | undefined;
  let looped = false;
  try {
    for (let part = 0, restarts = 0; part <= MAX_CONTINUATIONS; part++) {
      // What a piece's stream gathered is handed on when it ends, not after its usage is recorded (a round
      // trip) nor at the next DELTA_INTERVAL_MS: a streamed report's last part is verified from there.
      const piece = await settledExchange(options, () => streamPiece(options, written, emit, cutTo, out.flush));
      if (piece.cut !== undefined && options.onRestart && restarts < MAX_RESTARTS) {
        // Answered without its instructions: begun again, held to the window the cut showed.
        restarts++;
        cutTo = piece.cut;
        out.flush();
        console.warn(`[quarry] ${options.agent}: the LLM server cut the prompt to its context window without a word; the reply is written again with the prompt held to it.`);
        options.onRestart();
        [text, written, fence, part] = ["", "", fenceFilter(), -1];
        continue;
      }
      written += piece.text;
      if (piece.failure) {
        // A stream that failed after it began to send text (an upstream provider dying mid-reply behind
        // OpenRouter, a connection reset, a server gone quiet): what it sent is kept, and the rest asked
        // for as after a cut. Asked again from the start, the reader would see the text begin anew.
        if (part === MAX_CONTINUATIONS) rethrow(piece.failure, options.signal);
        console.warn(`[quarry] ${options.agent}: the reply's stream failed after ${piece.text.length} characters (${describeLlmError(piece.failure)}); asking for the rest.`);
        continue;
      }
      if (!cutByServer(piece, undefined) || !piece.text.trim()) break;
      // Looping when the limit stopped it (./repetition.ts): not continued, and kept up to the loop's first copy.
      if (withoutLoop(written) !== undefined) {
        looped = true;
        warnLooped(options.agent);
        break;
      }
    }
    const rest = fence.end();
    text += rest;
    out.push(rest);
    out.flush();
  } finally {
    out.stop();
  }
  // What streamed kept the chat around a reply that was not fenced whole ("Here's the report: ```…```").
  const whole = unwrapReport(text);
  return storable(looped ? (withoutLoop(whole) ?? whole) : whole);
}

/**
 * One streamed call: the reply (or, after `written`, its continuation) without its reasoning
 * (./reasoning.ts: held back and dropped), handed to `emit` as it arrives. A continuation's start is
 * held until it is known whether it repeats the end of `written` (joinContinued).
 */
async function streamPiece(options: CallOptions, written: string, emit: (delta: string) => void, cutTo?: number, ended?: () => void): Promise<{ text: string; finishReason: string; usage: TokenCount; failure?: unknown; cut?: number }> {
  const { signal, schedule } = options;
  let streamError: unknown;
  // Held to the server's known context window; one that cuts this prompt teaches its window to the next calls.
  const window = minWindow(contextWindow(), cutTo);
  const whole = plainTurns(options.prompt, written);
  const turns = heldToWindow(options.system, whole, 0, window);
  if (turns !== whole) options.onHeld?.();
  const result = streamText({
    model: researchModel(schedule),
    system: options.system,
    messages: turns,
    maxRetries: 0,
    abortSignal: signal,
    onError: ({ error }) => {
      streamError = error;
    },
  });
  const reasoning = reasoningFilter({ continuation: Boolean(written) });
  let receivedChars = 0;
  let text = "";
  // A continuation's first characters, until they are past any repeat of what came before.
  let held: string | null = written ? "" : null;
  const take = (delta: string, ended = false) => {
    if (held === null) {
      text += delta;
      return emit(delta);
    }
    held += delta;
    if (held.length < OVERLAP_WINDOW && !ended) return;
    const joined = joinContinued(written, held);
    held = null;
    take(joined);
  };
  // Kept for a server known to send whole replies in the reasoning field, whose reply's text is its reasoning.
  const keepRaw = !written && answersInReasoning(serverKey());
  let rawText = "";
  for await (const raw of result.textStream) {
    receivedChars += raw.length;
    if (keepRaw) rawText += raw;
    take(reasoning.push(raw));
  }
  take(reasoning.end(), true);
  ended?.();
  const sentChars = turns.reduce((n, turn) => n + turn.content.length, options.system.length);
  if (streamError) {
    // Failed after text was sent (and not stopped by the caller): the text is the piece, its tokens estimated.
    if (!text.trim() || signal?.aborted) throw streamError;
    return { text, finishReason: "error", usage: toTokenCount(undefined, sentChars, receivedChars), failure: streamError };
  }
  const reported = await result.usage;
  const cut = notePromptTokens(sentChars, reported.inputTokens);
  const cutWindow = cut === undefined ? undefined : learnCutWindow(cut, window);
  // A server known to send whole replies in the reasoning field (./reasoning-field.ts): a blank one's is its text, handed on at its end.
  const answer = keepRaw && !text.trim() ? replyFromReasoning(rawText) : undefined;
  if (answer !== undefined) take(answer, true);
  const usage = toTokenCount(reported, sentChars, receivedChars + ((await result.finalStep).reasoningText?.length ?? 0));
  return { text, finishReason: await result.finishReason, usage, ...(cutWindow !== undefined ? { cut: cutWindow } : {}) };
}

/** The JSON of a reply asked for JSON with no response_format (in prose, a fence, written loosely), as JSON text; else the reply as it came. */
function jsonText(text: string): string {
  try {
    return JSON.stringify(extractJson(text));
  } catch {
    return text;
  }
}

/** The characters of a conversation's text, for a token estimate. */
function chatChars(messages: ModelMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    if (typeof m.content === "string") chars += m.content.length;
    else for (const part of m.content) if (part.type === "text" || part.type === "reasoning") chars += part.text.length;
  }
  return chars;
}

/** What a client asked the reply to be (OpenAI's response_format): free text, any JSON object, or JSON matching a schema. */
export type ReplyFormat = { type: "text" } | { type: "json_object" } | { type: "json_schema"; name: string; schema: Record<string, unknown> };

export interface ChatCallOptions {
  /** The conversation as the client sent it (system messages included). */
  messages: ModelMessage[];
  format?: ReplyFormat;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  /** A client's own sampling settings, passed on as it gave them (OpenAI's stop, seed and penalties). */
  stopSequences?: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
  schedule?: WaitOptions;
}

/**
 * One plain call over a client's own messages, in the format it asked: the text as the model wrote
 * it (JSON as text for the JSON formats) and why it stopped ("stop", or "length" at the limit).
 */
export async function generateChat(options: ChatCallOptions): Promise<{ text: string; finishReason: "stop" | "length" }> {
  const { onUsage, signal, schedule, format } = options;
  // The client's format as the server takes it (inFormatTaken): a JSON Schema the server does not take as
  // the format goes in a system message, and JSON asked with no format is read out of the reply.
  const send = (support: FormatSupport) => {
    const json = format?.type === "json_schema" || format?.type === "json_object";
    const schemaAsFormat = format?.type === "json_schema" && (support === "schema" || support === "schema+prompt");
    const output = schemaAsFormat
      ? Output.object({ schema: jsonSchema(format.schema), name: format.name.replace(/[^a-zA-Z0-9_-]/g, "_") })
      : json && support !== "none"
        ? Output.json()
        : undefined;
    const instruction =
      format?.type === "json_schema" && support !== "schema"
        ? `Reply with one JSON object only, matching this JSON Schema:\n${JSON.stringify(format.schema)}`
        : json && support === "none"
          ? "Reply with one JSON object only."
          : undefined;
    const reply = generateText({
      model: researchModel(schedule),
      messages: instruction ? [...options.messages, { role: "system", content: instruction }] : options.messages,
      allowSystemInMessages: true,
      ...(output ? { output } : {}),
      maxRetries: 0,
      abortSignal: signal,
      maxOutputTokens: options.maxOutputTokens,
      temperature: options.temperature,
      topP: options.topP,
      stopSequences: options.stopSequences,
      seed: options.seed,
      frequencyPenalty: options.frequencyPenalty,
      presencePenalty: options.presencePenalty,
    });
    return reply.then((result) => ({ result, readJson: json && !output }));
  };
  await onUsage?.begin?.();
  let settled = false;
  try {
    // Its begin was a round trip: a worker stopped meanwhile past its job's lock must not send it (lib/ownership.ts).
    assertOwned(signal);
    const { result, readJson } = format && format.type !== "text" ? await inFormatTaken(signal, send) : await send("schema");
    settled = true;
    await onUsage?.(toTokenCount(result.usage, chatChars(options.messages), result.text.length + (result.finalStep.reasoningText?.length ?? 0)));
    const text = replyText(result.text);
    return { text: storable(readJson ? jsonText(text) : text), finishReason: result.finishReason === "length" ? "length" : "stop" };
  } catch (error) {
    // A JSON reply cut at the length limit does not parse: the client gets it as it is, as OpenAI's API gives it.
    if (!settled && NoObjectGeneratedError.isInstance(error) && error.text !== undefined) {
      settled = true;
      await onUsage?.(toTokenCount(error.usage, chatChars(options.messages), error.text.length));
      return { text: storable(stripReasoning(error.text)), finishReason: error.finishReason === "length" ? "length" : "stop" };
    }
    if (settled) rethrow(error, signal);
    return settleFailed(onUsage, error, signal);
  }
}
