// The only place model ids and the LLM provider are configured.
import { createOpenAI } from "@ai-sdk/openai";
import type { EmbeddingModel, LanguageModel } from "ai";
import { assertResearchConfigured, getEnv } from "../env";
import { limiters } from "../limits";
import { createRetryingFetch } from "./http";

let cached: { key: string; model: LanguageModel; provider: ReturnType<typeof createOpenAI> } | undefined;

/**
 * The research model. With OPENAI_BASE_URL (Ollama, vLLM, LM Studio…) the chat-completions API is
 * used, which every OpenAI-compatible server speaks; for OpenAI itself too, for one code path.
 */
export function researchModel(): LanguageModel {
  assertResearchConfigured({ llm: true });
  const env = getEnv();
  const key = `${env.OPENAI_BASE_URL}|${env.RESEARCH_MODEL}|${env.OPENAI_API_KEY ? "k" : ""}`;
  if (cached?.key === key) return cached.model;
  const provider = createOpenAI({
    baseURL: env.OPENAI_BASE_URL,
    // Local servers ignore the key, but the client requires one.
    apiKey: env.OPENAI_API_KEY ?? "not-needed",
    fetch: createRetryingFetch({
      retryBudgetMs: env.LLM_RETRY_BUDGET_MS,
      timeoutMs: env.LLM_TIMEOUT_MS,
      limiter: limiters().llm,
      health: limiters().llmHealth,
    }),
  });
  cached = { key, model: provider.chat(env.RESEARCH_MODEL), provider };
  return cached.model;
}

/** The embedding model of EMBEDDING_MODEL on the same provider, or null when none is configured. */
export function embeddingModel(): EmbeddingModel | null {
  const id = getEnv().EMBEDDING_MODEL;
  if (!id) return null;
  researchModel();
  return cached!.provider.embedding(id);
}
