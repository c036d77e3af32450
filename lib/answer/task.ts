// "Housekeeping or question" for a request to quarry-answer. Chat UIs send their own background
// tasks (a chat's title, tags, follow-ups, search queries…) to the model a chat uses: those get one
// plain call, a question gets a research. Decided by what the request says for itself first:
//   1. a research parameter (budget_tokens, reasoning_effort…) means a question;
//   2. a known client template (lib/answer/templates.ts) — a housekeeping one means housekeeping, a
//      RAG one (the client's retrieved context around the question) a question, researched with it;
// and when those do not settle it, by one small classification call (agents/classifier.ts), whose
// tokens are recorded. A classification that fails counts as a question: a research is what the
// client asked of quarry-answer, and a wrong plain reply to a question is the worse mistake.
import { ZERO_TOKENS, type TokenCount } from "../ai/usage";
import { errorMessage } from "../errors";
import type { ChatKind, RequestOutline } from "./agents/classifier";
import { RESEARCH_PARAMETERS, textOf, type ChatRequest, type Provided } from "./openai";
import { matches, ragParts, TEMPLATES, type Housekeeping, type KnownTemplate } from "./templates";

export interface TaskDecision {
  kind: "housekeeping" | "question";
  /** What settled it. */
  by: "parameters" | "template" | "classifier" | "classifier-failed";
  /** The known template that settled it. */
  template?: string;
  /** The housekeeping asked for. */
  task?: Housekeeping;
  /** A RAG template's question and context. */
  provided?: Provided;
  /** The classification call's tokens (zero when none was made). */
  usage: TokenCount;
}

export type Classifier = (outline: RequestOutline) => Promise<{ kind: ChatKind; usage: TokenCount }>;

const isSystem = (role: string) => role === "system" || role === "developer";

/** The messages a template is looked for in: the last user message and the first system message, with their indexes. */
function candidates(body: ChatRequest): { where: "user" | "system"; index: number; text: string }[] {
  const out: { where: "user" | "system"; index: number; text: string }[] = [];
  const user = body.messages.findLastIndex((m) => m.role === "user");
  if (user >= 0) out.push({ where: "user", index: user, text: textOf(body.messages[user].content) });
  const system = body.messages.findIndex((m) => isSystem(m.role));
  if (system >= 0) out.push({ where: "system", index: system, text: textOf(body.messages[system].content) });
  return out;
}

function findTemplate(body: ChatRequest): { template: KnownTemplate; index: number; where: "user" | "system"; text: string } | undefined {
  const places = candidates(body);
  for (const template of TEMPLATES)
    for (const place of places) if ((template.in === "either" || template.in === place.where) && matches(template, place.text)) return { template, ...place };
  return undefined;
}

/** The decision the request's own shape and text settle, without a call; undefined when they do not. */
export function structuralDecision(body: ChatRequest): TaskDecision | undefined {
  if (RESEARCH_PARAMETERS.some((p) => body[p] != null)) return { kind: "question", by: "parameters", usage: ZERO_TOKENS };
  const found = findTemplate(body);
  if (!found) return undefined;
  const { template } = found;
  if (template.does !== "rag") return { kind: "housekeeping", by: "template", template: template.id, task: template.does, usage: ZERO_TOKENS };
  const parts = ragParts(template, found.text);
  // In the user message the template wraps the question; in the system message the question is the user's message.
  const lastUser = body.messages.findLastIndex((m) => m.role === "user");
  const question = found.where === "user" ? parts.question : parts.question || (lastUser >= 0 ? textOf(body.messages[lastUser].content) : "");
  return { kind: "question", by: "template", template: template.id, provided: { question, context: parts.context, messageIndex: found.index }, usage: ZERO_TOKENS };
}

/** What the classifier is shown: the system prompt, the last message, and the request's shape. */
export function outlineOf(body: ChatRequest): RequestOutline {
  const system = body.messages.filter((m) => isSystem(m.role)).map((m) => textOf(m.content)).join("\n").trim();
  const lastUser = body.messages.findLast((m) => m.role === "user");
  const last = lastUser ? textOf(lastUser.content) : textOf(body.messages.findLast((m) => isSystem(m.role))?.content ?? null);
  const turns = body.messages.filter((m) => m.role === "user" || m.role === "assistant").length;
  const format = body.response_format?.type === "json_schema" ? `JSON matching a schema named "${body.response_format.json_schema.name}"` : body.response_format?.type === "json_object" ? "a JSON object" : "text";
  const limit = body.max_completion_tokens ?? body.max_tokens;
  const shape = [
    `${body.messages.length} message(s): ${body.messages.map((m) => m.role).join(", ")}`,
    `${Math.max(0, turns - 1)} earlier turn(s) of conversation`,
    `reply wanted as ${format}`,
    limit ? `reply limited to ${limit} tokens` : "no reply length limit",
    body.stream ? "streamed" : "not streamed",
  ].join("; ");
  return { system, last, shape };
}

/** The decision for a request to quarry-answer: structural first, else the classifier's. */
export async function decideTask(body: ChatRequest, classify: Classifier): Promise<TaskDecision> {
  const settled = structuralDecision(body);
  if (settled) return settled;
  return classifyDecision(body, classify);
}

export async function classifyDecision(body: ChatRequest, classify: Classifier): Promise<TaskDecision> {
  try {
    const { kind, usage } = await classify(outlineOf(body));
    return kind === "question" ? { kind: "question", by: "classifier", usage } : { kind: "housekeeping", by: "classifier", task: kind, usage };
  } catch (error) {
    console.warn(`[quarry] chat request not classified, taken for a question: ${errorMessage(error)}`);
    return { kind: "question", by: "classifier-failed", usage: (error as { usage?: TokenCount }).usage ?? ZERO_TOKENS };
  }
}
