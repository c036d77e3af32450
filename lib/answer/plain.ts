// One plain call through Quarry's LLM for a chat client: model quarry-chat, and a chat UI's
// housekeeping (a title, tags, follow-ups) sent to quarry-answer. The client's messages go as they
// are, under its settings (format, length, sampling, stop), within the user's chat limits and
// recorded against the user (lib/answer/chat-limits.ts); no research, no run.
import { randomUUID } from "node:crypto";
import { generateChat } from "../ai/call";
import { addTokens, ZERO_TOKENS, type TokenCount } from "../ai/usage";
import { AppError } from "../errors";
import { withChatCall } from "./chat-limits";
import { replySettings, taskMessages, type ChatRequest } from "./openai";

/** A plain call's conversation is sent whole to the model: at most this much text. */
const MAX_TASK_CHARS = 100_000;
/** How long a client should wait before retrying a call the model could not answer. */
export const RETRY_AFTER_SECONDS = 10;

export interface PlainReply {
  requestId: string;
  text: string;
  finishReason: "stop" | "length";
  /** The call's tokens, and the classification's that came before it (lib/answer/task.ts). */
  usage: TokenCount;
}

export async function plainReply({ body, userId, signal, spent = ZERO_TOKENS }: { body: ChatRequest; userId: string | null; signal: AbortSignal; spent?: TokenCount }): Promise<PlainReply> {
  const messages = taskMessages(body);
  if (!messages.some((m) => m.role === "user")) throw new AppError("bad_request:messages", "The messages must include a user message with text", { field: "messages" });
  const chars = messages.reduce((n, m) => n + (typeof m.content === "string" ? m.content.length : 0), 0);
  if (chars > MAX_TASK_CHARS) throw new AppError("bad_request:messages", `The messages must be at most ${MAX_TASK_CHARS.toLocaleString("en-US")} characters in all; they have ${chars.toLocaleString("en-US")}`, { field: "messages" });
  const requestId = randomUUID();
  return withChatCall({ userId, kind: "chat-task", signal, promptChars: chars }, async ({ onUsage, used }) => {
    try {
      const reply = await generateChat({ messages, ...replySettings(body), signal, onUsage });
      return { requestId, text: reply.text, finishReason: reply.finishReason, usage: addTokens(spent, used()) };
    } catch (error) {
      if (signal.aborted) throw error;
      throw new AppError("unavailable:answer", "The model could not answer; try again", { cause: error, retryAfterSeconds: RETRY_AFTER_SECONDS });
    }
  });
}

export const chatUsage = (t: TokenCount) => ({ prompt_tokens: t.promptTokens, completion_tokens: t.completionTokens, total_tokens: t.promptTokens + t.completionTokens });
