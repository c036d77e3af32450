// Request parameters a server refuses, learned from its 400 and adapted to from then on, per server and
// model. Two families of real refusals:
// - `stream_options`, which the AI SDK sends with every stream: older Azure OpenAI API versions answer
//   "Unrecognized request argument supplied: stream_options", older TGI "unknown field `stream_options`".
//   It is left out (a stream's usage is then estimated: ./usage.ts).
// - OpenAI's reasoning models (o1, o3, o4-mini, gpt-5) served under a name the AI SDK does not know as
//   a reasoning model's — an Azure deployment's, a LiteLLM alias — get `max_tokens` and the sampling
//   settings, and answer "Unsupported parameter: 'max_tokens' is not supported with this model. Use
//   'max_completion_tokens' instead." or "Unsupported value: 'temperature' does not support 0.3 with
//   this model. Only the default (1) value is supported.". `max_tokens` is sent as
//   `max_completion_tokens` (the limit is kept); a sampling setting is left out (the model's default).
// A 400 that names a parameter without saying it is unsupported ("'max_tokens' is too large", a
// context-window refusal: ./context-limit.ts) is the caller's, not a habit.

/** What each parameter becomes when refused: another name, or null to leave it out. */
const ADAPTATIONS: Readonly<Record<string, string | null>> = {
  stream_options: null,
  max_tokens: "max_completion_tokens",
  temperature: null,
  top_p: null,
  presence_penalty: null,
  frequency_penalty: null,
  logprobs: null,
  top_logprobs: null,
  logit_bias: null,
  seed: null,
};

/** Words with which servers say a parameter is not taken (OpenAI, Azure, vLLM's pydantic, TGI, llama.cpp). */
const UNSUPPORTED = /unsupported|not supported|unrecogni[sz]ed|unknown|not permitted|not allowed|does not support|only the default|extra (?:inputs|fields)/i;

const learned = new Map<string, Set<string>>();

const keyOf = (server: string, body: Record<string, unknown>) => `${server}|${typeof body.model === "string" ? body.model : ""}`;

function parsed(body: BodyInit | null | undefined): Record<string, unknown> | null {
  if (typeof body !== "string") return null;
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The request's JSON body adapted to what its server (and model) refused before. */
export function adaptedBody(server: string, body: BodyInit | null | undefined): BodyInit | null | undefined {
  if (learned.size === 0) return body;
  const value = parsed(body);
  const refused = value && learned.get(keyOf(server, value));
  if (!value || !refused) return body;
  let changed = false;
  for (const name of refused) {
    if (!(name in value)) continue;
    const to = ADAPTATIONS[name];
    if (to && value[to] === undefined) value[to] = value[name];
    delete value[name];
    changed = true;
  }
  return changed ? JSON.stringify(value) : body;
}

/**
 * When the response refuses one of the request's adaptable parameters, remembers it for the server and
 * model and returns its name (the caller sends the request again at once, adapted); else undefined.
 */
export async function learnRefusal(server: string, response: Response, body: BodyInit | null | undefined): Promise<string | undefined> {
  if (response.status !== 400 && response.status !== 422) return undefined;
  const value = parsed(body);
  if (!value) return undefined;
  const sent = Object.keys(ADAPTATIONS).filter((name) => name in value);
  if (sent.length === 0) return undefined;
  const text = await response
    .clone()
    .text()
    .catch(() => "");
  if (!UNSUPPORTED.test(text)) return undefined;
  // OpenAI's error names the parameter in `param`; others only in the message.
  const param = /"param"\s*:\s*"([a-z_]+)"/.exec(text)?.[1];
  const name = sent.find((n) => n === param) ?? sent.find((n) => new RegExp(`\\b${n}\\b`).test(text));
  if (!name) return undefined;
  const key = keyOf(server, value);
  const refused = learned.get(key) ?? new Set<string>();
  if (refused.has(name)) return undefined;
  refused.add(name);
  learned.set(key, refused);
  const to = ADAPTATIONS[name];
  console.warn(`[quarry] the LLM server refused the request parameter ${name}: ${to ? `it is sent as ${to}` : "it is left out"} from now on.`);
  return name;
}
