// POST /v1/chat/completions – the answer agent as an OpenAI-compatible model (stream and non-stream)
import { requireCaller } from "@/lib/auth/caller";
import { parseBody } from "@/lib/http";
import { openAiOtherMethods, openAiRoute } from "@/lib/api/openai-error";
import { chatCompletion } from "@/lib/answer/chat";
import { chatRequestSchema } from "@/lib/answer/openai";

export const dynamic = "force-dynamic";

export const POST = openAiRoute(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const body = await parseBody(request, chatRequestSchema, "chat");
  // The official openai client sends one per request, the same on its retries: a retry joins the run.
  const idempotencyKey = request.headers.get("idempotency-key")?.trim().slice(0, 500) || undefined;
  return chatCompletion({ body, userId, signal: request.signal, idempotencyKey });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = openAiOtherMethods("POST");
