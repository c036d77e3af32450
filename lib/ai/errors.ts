import { errorMessage } from "../errors";

/**
 * An LLM call failed: the server could not be reached or kept failing past the retry budget
 * (`transient`: this call is lost, the run goes on without it), or it refused the request in a way
 * no retry fixes — a bad API key, a missing model (`config`: no call can succeed, the run stops).
 */
export class LlmUnavailableError extends Error {
  readonly kind: "transient" | "config";

  constructor(cause: unknown) {
    super(`The language model is unavailable: ${describeLlmError(cause)}`, { cause });
    this.name = "LlmUnavailableError";
    const status = (cause as { statusCode?: unknown })?.statusCode;
    this.kind = status === 401 || status === 403 || status === 404 ? "config" : "transient";
  }
}

/** The model answered, but not with valid structured output, even after repair prompts. */
export class StructuredOutputError extends Error {
  constructor(
    readonly agent: string,
    detail: string,
  ) {
    super(`The ${agent} agent returned invalid output after repair attempts: ${detail}`);
    this.name = "StructuredOutputError";
  }
}

/** A failed LLM exchange (an SDK error with a status, a timeout, a network error) in a few words. */
export function describeLlmError(error: unknown): string {
  const e = error as { name?: string; statusCode?: number; cause?: unknown };
  if (typeof e?.statusCode === "number") {
    // A refused key says nothing more (a provider's message may show part of the key).
    if (e.statusCode === 401 || e.statusCode === 403) return `HTTP ${e.statusCode} from the LLM server (check OPENAI_API_KEY)`;
    // The server's own words ("model 'x' not found", "maximum context length is 8192 tokens") say what to fix.
    const said = serverMessage(error);
    return `HTTP ${e.statusCode} from the LLM server${said ? `: ${said}` : ""}`;
  }
  if (e?.name === "TimeoutError") return "the LLM server did not answer in time";
  const message = errorMessage(error);
  const cause = e?.cause ? ` (${errorMessage(e.cause)})` : "";
  return `${message}${cause}`.slice(0, 300);
}

/**
 * The server's error message as the SDK read it from the response, or else as the body gives it (vLLM's
 * and llama.cpp's {"message": …} or {"error": "…"}, which the SDK reads as its status text only), on one
 * line, with anything like a key masked; "" when it said nothing more than its status.
 */
function serverMessage(error: unknown): string {
  const generic = (text: string) => !text || /^(bad request|not found|internal server error|service unavailable|too many requests|unprocessable entity|bad gateway|gateway timeout)$/i.test(text);
  let message = errorMessage(error).replace(/\s+/g, " ").trim();
  if (generic(message)) message = bodyMessage((error as { responseBody?: unknown }).responseBody).replace(/\s+/g, " ").trim();
  if (generic(message)) return "";
  return message.replace(/\b(?:sk|pk|rk|api|key|token)[-_][A-Za-z0-9_*.-]{6,}/gi, "[masked]").replace(/\bBearer\s+\S+/gi, "Bearer [masked]").slice(0, 200);
}

/** An LLM call that was lost (past its retries, or unusable output), as opposed to one that can never succeed. */
export function isLostCall(error: unknown): error is Error {
  return error instanceof StructuredOutputError || (error instanceof LlmUnavailableError && error.kind === "transient");
}

/**
 * A server's refusal of the request's form, as text to match (the SDK's message and the response body):
 * for a 400 or 422 only, undefined for any other error. What each refusal says is matched by its own
 * handler (a response format, a system role).
 */
export function refusalText(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const e = error as Error & { statusCode?: number; responseBody?: string };
  return e.statusCode === 400 || e.statusCode === 422 ? `${e.message} ${e.responseBody ?? ""}` : undefined;
}

/** The message of an error body in the shapes servers send: {"error": {"message"}}, {"error": "…"}, {"message"}, {"detail"}. */
function bodyMessage(body: unknown): string {
  if (typeof body !== "string") return "";
  try {
    const value = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
    const said = typeof value.error === "string" ? value.error : (value.error?.message ?? value.message ?? value.detail);
    return typeof said === "string" ? said : "";
  } catch {
    return "";
  }
}
