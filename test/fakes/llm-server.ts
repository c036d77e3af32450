// Fake OpenAI-compatible LLM: POST /v1/chat/completions (JSON and SSE streaming, the wire format
// @ai-sdk/openai's chat model parses), POST /v1/embeddings (deterministic vectors by meaning, see
// llm-embeddings.ts) and GET /v1/models. Replies per agent come from llm-agents.ts;
// the options here inject latency, sloppy or broken JSON, failures, and a misbehaving model's habits
// (llm-misbehave.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { clientGone, FakeServer, hang, latencyFor, readBody, sendJson, sleep, type LatencyRule } from "./fake-server";
import { agentReply, type QueryCountOverride, type ResponseFormat } from "./llm-agents";
import { embeddingsReply } from "./llm-embeddings";
import { agentOf, messageText, taskText, type ChatMessage } from "./llm-parse";
import { misbehave, SILENT_CUT_CONTEXT, silentCutKept, sloppyJson, uninstructedReply, type MisbehaveMode } from "./llm-misbehave";
import type { VerifyScenario } from "./llm-verify";
import { seededRandom } from "./random";

export interface LlmOptions {
  /** The model id reported by GET /v1/models and echoed in replies. */
  model: string;
  /** Delay before answering; streams spend half before the first chunk and spread half between chunks. */
  latencyMs: number;
  /** First match wins; `match` is a regex tested on the concatenated message text. */
  latencyRules: LatencyRule[];
  /**
   * Generation speed (0: off, the latency alone): after the latency, the reply is generated at this
   * many tokens (estimateTokens) a second. A stream sends each chunk when its last token is
   * generated; a reply that is not streamed is sent when its last token is.
   */
  tokensPerSecond: number;
  /** Wrap JSON replies in ```json fences with prose before and after. */
  sloppy: boolean;
  /** The next n JSON replies are truncated (invalid JSON); counts down. */
  brokenJsonTimes: number;
  /** Share (0..1) of requests that get a 500, drawn from a PRNG seeded with `seed`. */
  failureRate: number;
  seed: number;
  /** The next n requests get 429 with a Retry-After header; counts down. */
  fail429Times: number;
  retryAfterSeconds: number;
  /** Every request fails with this status until reset (0 or null: off). */
  failAll: number | null;
  /** Per agent: after `skip` answered requests, the next `times` get `status` (count down as they happen), `afterMs` after their arrival (default at once). */
  agentFailures: { agent: string; status: number; skip: number; times: number; afterMs?: number }[];
  /** Every request hangs (never answered) until reset. */
  hangAll: boolean;
  /** The report writer also cites FABRICATED_URL once. */
  hallucinateCitation: boolean;
  /** Report verification scenarios: planted unsupported, overstated and uncited sentences; forged quotes (llm-verify.ts). */
  verify: VerifyScenario;
  /** How many queries (and questions) to return against <count>: exact, count + 2, max(1, count - 1), or stuck (see llm-agents.ts). */
  queryCountOverride: QueryCountOverride;
  /** Whether a page read proposes the follow-up searches it is asked for (off: a model that leaves them out, so that children are planned by the query generator). */
  readFollowUps: boolean;
  /** A misbehaving model: the scenario's replies transformed as real models and servers answer (llm-misbehave.ts); null: off. */
  misbehave: MisbehaveMode | null;
  /** Prompt tokens counted at most this many (0: off), as a server that cuts prompts to its context window reports them (Ollama's num_ctx). */
  contextWindow: number;
  /** A server that refuses a prompt of more tokens than this with a 400, as vLLM does past max_model_len (0: none). */
  contextLimit: number;
}

export interface LlmLogEntry {
  at: number;
  agent: string;
  stream: boolean;
  model: string;
  messages: ChatMessage[];
  response_format_name: string | null;
  /** Null while the request is open (and forever for hung requests). */
  status: number | null;
  /** When the response ended or the request was dropped (epoch ms); null while it is open. */
  endedAt: number | null;
  promptTokens: number;
  completionTokens: number;
  /** The text sent back (null for failures). */
  reply: string | null;
  /** The reasoning sent beside it in `reasoning_content` (misbehave "reasoning-field"), else null. */
  reasoning: string | null;
  /** Whether the misbehave mode changed the scenario's reply. */
  misbehaved: boolean;
  /** Under a misbehave mode: the scenario's reply before the mode changed it. */
  intended?: string;
  /** The request's sampling settings and output limit (null when not sent). */
  temperature: number | null;
  topP: number | null;
  maxTokens: number | null;
}

interface ChatRequest {
  model?: string;
  messages?: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: ResponseFormat;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
}

const DEFAULTS: LlmOptions = {
  model: "fake-model",
  latencyMs: 0,
  latencyRules: [],
  tokensPerSecond: 0,
  sloppy: false,
  brokenJsonTimes: 0,
  failureRate: 0,
  seed: 1,
  fail429Times: 0,
  retryAfterSeconds: 1,
  failAll: null,
  agentFailures: [],
  hangAll: false,
  hallucinateCitation: false,
  verify: { plantUnsupported: false, plantPartial: false, plantUncited: false, forgeQuotes: false },
  queryCountOverride: "exact",
  readFollowUps: true,
  misbehave: null,
  contextWindow: 0,
  contextLimit: 0,
};

/** The token estimate the product uses too: ceil(characters / 4). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

export class FakeLlm extends FakeServer<LlmOptions, LlmLogEntry> {
  private random: () => number;
  private counters = new Map<string, number>();
  /** JSON replies a misbehave mode cut at the output limit: what was sent → the rest, for a continuation. */
  private jsonCuts = new Map<string, string>();
  private nextId = 0;
  /** Chat completions being answered now, and the most at once since the last reset. */
  inFlight = 0;
  peakInFlight = 0;
  /** Every text POST /v1/embeddings embedded since the last reset, in order (not in `log`, which is chat only). */
  embedded: string[] = [];

  constructor(options: Partial<LlmOptions> = {}) {
    super(DEFAULTS, options);
    this.random = seededRandom(this.options.seed);
  }

  protected publicUrl(origin: string): string {
    return `${origin}/v1`;
  }

  protected countKey(entry: LlmLogEntry): string {
    return entry.agent;
  }

  protected onReset(): void {
    this.random = seededRandom(this.options.seed);
    this.counters.clear();
    this.jsonCuts.clear();
    this.nextId = 0;
    this.peakInFlight = this.inFlight;
    this.embedded = [];
  }

  configure(patch: Partial<LlmOptions>): void {
    super.configure(patch);
    if (patch.seed !== undefined) this.random = seededRandom(patch.seed);
  }

  /** Next number of a counter that lives until reset. */
  private nextNumber(key: string): number {
    const n = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, n);
    return n;
  }

  /** Requests per agent so far (all agents when none is given). */
  calls(agent?: string): number {
    return agent ? this.log.filter((e) => e.agent === agent).length : this.log.length;
  }

  protected async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/\/+$/, "");
    if (req.method === "GET" && path.endsWith("/models")) {
      return sendJson(res, 200, { object: "list", data: [{ id: this.options.model, object: "model", created: 1_735_689_600, owned_by: "quarry-fakes" }] });
    }
    if (req.method === "POST" && path.endsWith("/embeddings")) {
      // failAll and hangAll hold for embeddings too: a provider that is down is down for both.
      if (this.options.hangAll) return hang(this.stopSignal.signal, clientGone(req, res));
      if (this.options.failAll) return sendJson(res, this.options.failAll, failureBody(this.options.failAll));
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return sendJson(res, 400, openAiError("Request body is not valid JSON", "invalid_request_error", null));
      }
      const reply = embeddingsReply(body, this.options.model);
      if ("error" in reply) return sendJson(res, 400, openAiError(reply.error, "invalid_request_error", null));
      this.embedded.push(...reply.texts);
      return sendJson(res, 200, reply.body);
    }
    if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
      return sendJson(res, 404, openAiError(`Unknown path ${url.pathname}`, "invalid_request_error", null));
    }
    let body: ChatRequest;
    try {
      body = JSON.parse(await readBody(req)) as ChatRequest;
    } catch {
      return sendJson(res, 400, openAiError("Request body is not valid JSON", "invalid_request_error", null));
    }
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const allText = messages.map(messageText).join("\n");
    const entry: LlmLogEntry = {
      at: Date.now(),
      agent: agentOf(messages),
      stream: body.stream === true,
      model: body.model ?? this.options.model,
      messages,
      response_format_name: body.response_format?.json_schema?.name ?? body.response_format?.type ?? null,
      status: null,
      endedAt: null,
      promptTokens: estimateTokens(allText),
      completionTokens: 0,
      reply: null,
      reasoning: null,
      misbehaved: false,
      temperature: body.temperature ?? null,
      topP: body.top_p ?? null,
      maxTokens: body.max_completion_tokens ?? body.max_tokens ?? null,
    };
    this.log.push(entry);
    res.on("finish", () => (entry.status = res.statusCode));
    // Concurrency as the provider sees it: requests being answered at once (the fleet-wide limit's test).
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    res.on("close", () => {
      this.inFlight--;
      entry.endedAt = Date.now();
    });
    const signals = [this.stopSignal.signal, clientGone(req, res)];
    if (messages.length === 0) return sendJson(res, 400, openAiError("messages must be a non-empty array", "invalid_request_error", null));

    const o = this.options;
    if (o.hangAll) return hang(...signals);
    if (o.failAll) return sendJson(res, o.failAll, failureBody(o.failAll));
    const rule = o.agentFailures.find((r) => r.agent === entry.agent && (r.skip > 0 || r.times > 0));
    if (rule && rule.skip > 0) rule.skip--;
    else if (rule) {
      rule.times--;
      if (rule.afterMs) await sleep(rule.afterMs, ...signals);
      return sendJson(res, rule.status, failureBody(rule.status));
    }
    if (o.fail429Times > 0) {
      o.fail429Times--;
      return sendJson(res, 429, failureBody(429), { "retry-after": String(o.retryAfterSeconds) });
    }
    if (o.failureRate > 0 && this.random() < o.failureRate) return sendJson(res, 500, failureBody(500));
    // As vLLM answers a prompt longer than its max_model_len.
    if (o.contextLimit > 0 && entry.promptTokens > o.contextLimit) {
      const message = `This model's maximum context length is ${o.contextLimit} tokens. However, you requested ${entry.promptTokens} tokens in the messages. Please reduce the length of the messages.`;
      return sendJson(res, 400, { object: "error", message, type: "BadRequestError", param: null, code: 400 });
    }
    // As older Azure OpenAI API versions answer the usage option of a stream.
    if (o.misbehave === "no-stream-options" && body.stream_options !== undefined) {
      entry.misbehaved = true;
      return sendJson(res, 400, openAiError("Unrecognized request argument supplied: stream_options", "invalid_request_error", null));
    }
    // As vLLM answers a system message that Gemma 2's chat template refuses.
    if (o.misbehave === "no-system" && messages.some((m) => m.role === "system")) {
      entry.misbehaved = true;
      return sendJson(res, 400, { object: "error", message: "System role not supported", type: "BadRequestError", param: null, code: 400 });
    }
    // As OpenAI's API answers a reasoning model (o1, o3, gpt-5) asked under a name the AI SDK does not know as one.
    const reasoningRefusal = o.misbehave === "reasoning-params" ? reasoningModelRefusal(body) : null;
    if (reasoningRefusal) {
      entry.misbehaved = true;
      return sendJson(res, 400, { error: { message: reasoningRefusal.message, type: "invalid_request_error", param: reasoningRefusal.param, code: reasoningRefusal.code } });
    }
    // As OpenRouter answers when the upstream provider fails after its 200 went out: the error is the body,
    // whole or as the stream's first event after its "processing" comments. Every 4th request.
    if (o.misbehave === "error-in-200" && this.nextNumber("misbehave|error-in-200") % 4 === 0) {
      entry.misbehaved = true;
      if (!entry.stream) return sendJson(res, 200, UPSTREAM_ERROR);
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
      res.write(": OPENROUTER PROCESSING\n\n");
      return void res.end(`data: ${JSON.stringify(UPSTREAM_ERROR)}\n\n`);
    }
    // As DeepSeek's API answers a format it does not take.
    if (o.misbehave === "no-schema" && body.response_format?.type === "json_schema") {
      entry.misbehaved = true;
      return sendJson(res, 400, openAiError("This response_format type is unavailable now", "invalid_request_error", null));
    }

    // As Ollama answers a prompt longer than its context window with its context shift on (its default):
    // cut to its first tokens and its end, answered without its instructions, counted as cut.
    const cutPrompt = o.misbehave === "silent-cut" && entry.promptTokens >= SILENT_CUT_CONTEXT;
    if (cutPrompt) {
      entry.misbehaved = true;
      entry.promptTokens = silentCutKept(SILENT_CUT_CONTEXT);
    }
    const reply = cutPrompt ? { text: uninstructedReply(body.response_format?.json_schema?.schema, body.response_format !== undefined), json: body.response_format !== undefined } : agentReply({
      agent: entry.agent,
      messages,
      responseFormat: body.response_format,
      queryCountOverride: o.queryCountOverride,
      readFollowUps: o.readFollowUps,
      hallucinateCitation: o.hallucinateCitation,
      verify: o.verify,
      nextNumber: (key) => this.nextNumber(key),
    });
    let text = reply.text;
    let reasoning: string | null = null;
    let finishReason = "stop";
    if (reply.json && o.brokenJsonTimes > 0) {
      o.brokenJsonTimes--;
      // A prefix of the object: its outer brace never closes, so no lenient parser can recover it.
      text = text.slice(0, Math.max(1, Math.floor(text.length * 0.6)));
    } else if (cutPrompt) {
      // Answered as it came: nothing of the scenario in it.
    } else if (o.misbehave && this.jsonCuts.has(lastAssistantText(messages))) {
      // Asked to go on after a JSON reply it cut: the rest of that reply.
      text = this.jsonCuts.get(lastAssistantText(messages))!;
    } else if (o.misbehave) {
      const earlier = messages.findLast((m) => m.role === "assistant");
      entry.intended = text;
      const changed = misbehave({
        mode: o.misbehave,
        agent: entry.agent,
        text,
        json: reply.json,
        schema: body.response_format?.json_schema?.schema,
        // A repair request carries the reply it repairs.
        firstAttempt: !earlier,
        earlier: earlier ? messageText(earlier) : null,
        prompt: taskText(messages),
        nextNumber: (key) => this.nextNumber(key),
      });
      entry.misbehaved = changed.text !== text || changed.reasoning !== null;
      if (reply.json && changed.finishReason === "length" && text.startsWith(changed.text)) this.jsonCuts.set(changed.text, text.slice(changed.text.length));
      ({ text, reasoning } = changed);
      finishReason = changed.finishReason ?? finishReason;
    } else if (reply.json && o.sloppy) {
      text = sloppyJson(text);
    }
    // As Anthropic's OpenAI-compatible endpoint ("response_format: Ignored"): a model never shown the JSON
    // Schema (neither in the prompt nor in a repair request) guesses the reply's keys.
    if (o.misbehave === "ignores-format" && reply.json && !/JSON Schema:\n\{/.test(allText)) {
      text = JSON.stringify({ result: "Here is the requested information, as JSON.", details: [] });
      entry.misbehaved = true;
    }
    // As OpenAI's reasoning models: tokens of thought before every reply, never sent, counted in its
    // completion tokens and its limit. A limit they fill leaves the reply empty.
    let hidden = o.misbehave === "hidden-reasoning" ? HIDDEN_REASONING_TOKENS : 0;
    const limit = body.max_completion_tokens ?? body.max_tokens;
    if (limit && hidden + estimateTokens(text) > limit) {
      hidden = Math.min(hidden, limit);
      text = text.slice(0, (limit - hidden) * 4);
      finishReason = "length";
      if (!text) entry.misbehaved = true;
    }
    entry.reply = text;
    entry.reasoning = reasoning;
    entry.completionTokens = estimateTokens(text + (reasoning ?? "")) + hidden;
    if (o.contextWindow > 0) entry.promptTokens = Math.min(entry.promptTokens, o.contextWindow);
    const usage = { prompt_tokens: entry.promptTokens, completion_tokens: entry.completionTokens, total_tokens: entry.promptTokens + entry.completionTokens, ...(hidden ? { completion_tokens_details: { reasoning_tokens: hidden } } : {}) };
    // A server that counts nothing (misbehave "no-usage") sends no usage, whatever stream_options asks.
    const sendsUsage = o.misbehave !== "no-usage";
    if (!sendsUsage) entry.misbehaved = true;
    const latency = latencyFor(allText, o.latencyRules, o.latencyMs);
    const id = `chatcmpl-fake${++this.nextId}`;
    const created = Math.floor(Date.now() / 1000);
    const base = { id, created, model: entry.model, system_fingerprint: "fp_fake" };

    // Generation time of `chars` characters of reply at tokensPerSecond (ms).
    const generationMs = (chars: number) => (o.tokensPerSecond > 0 ? (chars / 4 / o.tokensPerSecond) * 1000 : 0);
    if (!entry.stream) {
      await sleep(latency + generationMs((reasoning ?? "").length + text.length), ...signals);
      return sendJson(res, 200, {
        ...base,
        object: "chat.completion",
        // A reply wholly in the reasoning field has no content at all (vLLM: null).
        choices: [{ index: 0, message: { role: "assistant", content: text === "" && reasoning !== null ? null : text, ...(reasoning !== null ? { reasoning_content: reasoning } : {}), refusal: null }, logprobs: null, finish_reason: finishReason }],
        ...(sendsUsage ? { usage } : {}),
      });
    }

    const includeUsage = sendsUsage && body.stream_options?.include_usage === true;
    const chunk = (choices: unknown[], extra: object = {}) =>
      `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices, ...(includeUsage ? { usage: null } : {}), ...extra })}\n\n`;
    const piecesOf = (t: string) => t.match(/(?:\S+\s*){1,3}|\s+/g) ?? [];
    // Reasoning streams first, in deltas of its own (as vLLM's and Ollama's reasoning parsers send it).
    const pieces = [...piecesOf(reasoning ?? "").map((p) => ({ reasoning_content: p })), ...piecesOf(text).map((p) => ({ content: p }))];
    const paced = o.tokensPerSecond > 0;
    await sleep(paced ? latency : latency / 2, ...signals);
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    res.write(chunk([{ index: 0, delta: { role: "assistant", content: "", refusal: null }, logprobs: null, finish_reason: null }]));
    // Spread the second half of the latency over the chunks, against the clock so that coarse
    // timers do not add up: each chunk waits until its share of the time is due.
    // At tokensPerSecond, each chunk is sent once its last token is generated.
    const perPiece = pieces.length ? latency / 2 / pieces.length : 0;
    const streamStart = Date.now();
    let generated = 0;
    // error-in-200: every other long stream the upstream fails mid-reply, half of it sent (the rest is never sent).
    const failAt = o.misbehave === "error-in-200" && text.length > 200 && this.nextNumber("misbehave|error-mid-stream") % 2 === 1 ? Math.floor(pieces.length / 2) : -1;
    for (const [i, piece] of pieces.entries()) {
      if (i === failAt) {
        entry.misbehaved = true;
        // Asked to go on from what was sent: the rest (as a model continuing its reply).
        const sent = pieces.slice(0, i).map((p) => ("content" in p ? p.content : "")).join("");
        this.jsonCuts.set(sent, text.slice(sent.length));
        return void res.end(`data: ${JSON.stringify(UPSTREAM_ERROR)}\n\n`);
      }
      if (paced) {
        generated += ("content" in piece ? piece.content : piece.reasoning_content).length;
        const due = streamStart + generationMs(generated) - Date.now();
        if (due >= 2) await sleep(due, ...signals);
      }
      res.write(chunk([{ index: 0, delta: piece, logprobs: null, finish_reason: null }]));
      const wait = paced ? 0 : streamStart + (i + 1) * perPiece - Date.now();
      if (wait >= 2) await sleep(wait, ...signals);
    }
    res.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }]));
    if (includeUsage) res.write(chunk([], { usage }));
    res.end("data: [DONE]\n\n");
  }
}

/** What OpenRouter sends for an upstream provider's failure once its 200 went out (misbehave "error-in-200"). */
const UPSTREAM_ERROR = { error: { message: "Provider returned error", code: 502, metadata: { provider_name: "Fake upstream" } } };

/** The thought of a reply under misbehave "hidden-reasoning": more than an answer's capped calls allow (4,000 at most). */
const HIDDEN_REASONING_TOKENS = 5_000;

/** What OpenAI's API answers a reasoning model's request with max_tokens or a sampling setting, if it has one. */
function reasoningModelRefusal(body: ChatRequest): { message: string; param: string; code: string } | null {
  if (body.max_tokens !== undefined) return { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", param: "max_tokens", code: "unsupported_parameter" };
  if (body.temperature !== undefined && body.temperature !== 1) return { message: `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`, param: "temperature", code: "unsupported_value" };
  for (const param of ["top_p", "presence_penalty", "frequency_penalty"] as const) {
    if (body[param] !== undefined) return { message: `Unsupported parameter: '${param}' is not supported with this model.`, param, code: "unsupported_parameter" };
  }
  return null;
}

function openAiError(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

function failureBody(status: number) {
  if (status === 429) return openAiError("Rate limit reached for fake-model (fake). Please try again later.", "requests", "rate_limit_exceeded");
  if (status === 401) return openAiError("Incorrect API key provided (fake).", "invalid_request_error", "invalid_api_key");
  if (status === 404) return openAiError("The model does not exist (fake).", "invalid_request_error", "model_not_found");
  if (status < 500) return openAiError(`Fake failure with status ${status}.`, "invalid_request_error", null);
  return openAiError(`The server had an error while processing your request (fake ${status}).`, "server_error", null);
}

/** The text of the conversation's last assistant message ("" when none). */
function lastAssistantText(messages: ChatMessage[]): string {
  const earlier = messages.findLast((m) => m.role === "assistant");
  return earlier ? messageText(earlier) : "";
}
