import { errorMessage } from "../errors";

/** The LLM could not be reached or kept failing after retries: the research cannot continue. */
export class LlmUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The language model is unavailable: ${describeLlmError(cause)}`, { cause });
    this.name = "LlmUnavailableError";
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

function describeLlmError(error: unknown): string {
  const e = error as { statusCode?: number; url?: string; cause?: unknown };
  if (typeof e?.statusCode === "number") return `HTTP ${e.statusCode} from the LLM server`;
  const message = errorMessage(error);
  const cause = e?.cause ? ` (${errorMessage(e.cause)})` : "";
  return `${message}${cause}`.slice(0, 300);
}
