// Chat templates that take no system message. Gemma 2's raises "System role not supported", and so
// vLLM and llama.cpp's server (with --jinja) answer every request that has one with a 400; Mistral's
// older templates raise "Conversation roles must alternate user/assistant/user/assistant/..." for a
// system message anywhere but first, or two user messages in a row; OpenAI's o1-mini and o1-preview
// (under a name the AI SDK does not know as theirs) "Unsupported value: 'messages[0].role' does not
// support 'system' with this model.". A server that answers so is sent
// the system text inside the user messages instead (what Gemma 3's and Mistral's newer templates do
// themselves), from its first refusal on, per server and model, for the life of the process.
import type { LanguageModelMiddleware } from "ai";
import { describeLlmError, refusalText } from "./errors";
import { serverKey } from "./server-key";

const folding = new Set<string>();

/** A 400 (or 422) whose message says the template takes no system message or wants strict alternation. */
export function rejectsSystemRole(error: unknown): boolean {
  return /system (?:role|message|prompt)s? (?:is |are )?not (?:supported|allowed)|roles must alternate|only user and assistant roles|does not support '?system'?/i.test(refusalText(error) ?? "");
}

type CallParams = Parameters<NonNullable<LanguageModelMiddleware["wrapGenerate"]>>[0]["params"];
type Prompt = CallParams["prompt"];
type Message = Prompt[number];
type UserMessage = Extract<Message, { role: "user" }>;
type Part = UserMessage["content"][number];

/** Adjacent text parts as one (servers that take a message's content only as a string). */
function joinedText(parts: Part[]): Part[] {
  const out: Part[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (part.type === "text" && last?.type === "text") out[out.length - 1] = { ...last, text: `${last.text}\n\n${part.text}` };
    else out.push(part);
  }
  return out;
}

/**
 * The prompt with no system message: each one's text at the head of the next user message (after the
 * last, at the end of the last), and messages of one role in a row merged, so that roles alternate.
 */
export function withoutSystemMessages(prompt: Prompt): Prompt {
  const out: Message[] = [];
  let pending: string[] = [];
  for (const message of prompt) {
    if (message.role === "system") {
      pending.push(message.content);
      continue;
    }
    let m = message;
    if (m.role === "user" && pending.length) {
      m = { ...m, content: [{ type: "text", text: pending.join("\n\n") }, ...m.content] };
      pending = [];
    }
    const last = out.at(-1);
    if (last?.role === "user" && m.role === "user") out[out.length - 1] = { ...last, content: [...last.content, ...m.content] };
    else if (last?.role === "assistant" && m.role === "assistant") out[out.length - 1] = { ...last, content: [...last.content, ...m.content] };
    else out.push(m);
  }
  if (pending.length) {
    const index = out.findLastIndex((m) => m.role === "user");
    const text: Part = { type: "text", text: pending.join("\n\n") };
    if (index >= 0) out[index] = { ...out[index], content: [...(out[index] as UserMessage).content, text] } as Message;
    else out.push({ role: "user", content: [text] });
  }
  return out.map((m) => (m.role === "user" ? { ...m, content: joinedText(m.content) } : m));
}

/** `send` with the prompt as the server takes it: none of its system messages where it refused them (and again so at its first refusal). */
async function inRolesTaken<T>(params: CallParams, send: (params: CallParams) => PromiseLike<T>): Promise<T> {
  const key = serverKey();
  const folded = () => send({ ...params, prompt: withoutSystemMessages(params.prompt) });
  if (folding.has(key)) return folded();
  if (!params.prompt.some((m) => m.role === "system")) return send(params);
  try {
    return await send(params);
  } catch (error) {
    if (params.abortSignal?.aborted || !rejectsSystemRole(error)) throw error;
    if (!folding.has(key)) {
      folding.add(key);
      console.warn(`[quarry] the LLM server refused a system message (${describeLlmError(error)}): system prompts are sent inside the user messages from now on.`);
    }
    return folded();
  }
}

/** The research model's middleware (./providers.ts): every call's prompt as the server takes it. */
export const systemRoleMiddleware: LanguageModelMiddleware = {
  wrapGenerate: ({ params, model }) => inRolesTaken(params, (p) => model.doGenerate(p)),
  wrapStream: ({ params, model }) => inRolesTaken(params, (p) => model.doStream(p)),
};
