// The only place model ids and the LLM provider are configured.
import { createOpenAI } from "@ai-sdk/openai";
import { wrapLanguageModel, type EmbeddingModel } from "ai";
import { assertResearchConfigured, getEnv } from "../env";
import { BoundedMap } from "../bounded-map";
import type { WaitOptions } from "../concurrency";
import { limiters } from "../limits";
import { createRetryingFetch } from "./http";
import { systemRoleMiddleware } from "./system-role";

/** The research model as the AI SDK's OpenAI provider makes it, wrapped: the AI SDK's language model interface (`doGenerate`, `doStream`). */
export type ChatModel = ReturnType<typeof wrapLanguageModel>;

type Scheduled = { provider: ReturnType<typeof createOpenAI>; model: ChatModel };

/** The configuration the providers below were made for, and each schedule's provider and model (their fetch waits in that lane, at that priority). */
let cached: { key: string; providers: BoundedMap<string, Scheduled> } | undefined;

/** The provider whose requests wait for an LLM slot as `schedule` says (the default lane without one), and its research model. */
function scheduled(schedule: WaitOptions = {}): Scheduled {
  assertResearchConfigured({ llm: true });
  const env = getEnv();
  const key = `${env.OPENAI_BASE_URL}|${env.RESEARCH_MODEL}|${env.OPENAI_API_KEY ? "k" : ""}|${env.LLM_RETRY_BUDGET_MS}|${env.LLM_TIMEOUT_MS}`;
  if (cached?.key !== key) cached = { key, providers: new BoundedMap(1_000) };
  // A run's lane and a handful of priorities: a few providers per run, made once each (cheap objects).
  return cached.providers.getOrAdd(`${schedule.lane ?? ""}\u0000${schedule.priority ?? 0}`, () => {
    const provider = createOpenAI({
      baseURL: env.OPENAI_BASE_URL,
      // Local servers ignore the key, but the client requires one.
      apiKey: env.OPENAI_API_KEY ?? "not-needed",
      fetch: createRetryingFetch({
        retryBudgetMs: env.LLM_RETRY_BUDGET_MS,
        timeoutMs: env.LLM_TIMEOUT_MS,
        limiter: limiters().llm,
        health: limiters().llmHealth,
        schedule,
      }),
    });
    // Where the server refuses system messages, none is sent (./system-role.ts).
    return { provider, model: wrapLanguageModel({ model: provider.chat(env.RESEARCH_MODEL), middleware: systemRoleMiddleware }) };
  });
}

/**
 * The research model, its requests waiting for an LLM slot in `schedule`'s lane and at its priority.
 * With OPENAI_BASE_URL (Ollama, vLLM, LM Studio…) the chat-completions API is used, which every
 * OpenAI-compatible server speaks; for OpenAI itself too, for one code path.
 */
export function researchModel(schedule?: WaitOptions): ChatModel {
  return scheduled(schedule).model;
}

/** The embedding model of EMBEDDING_MODEL on the same provider, or null when none is configured. */
export function embeddingModel(): EmbeddingModel | null {
  const id = getEnv().EMBEDDING_MODEL;
  if (!id) return null;
  return scheduled().provider.embedding(id);
}
