// POST /v1/chat/completions – the answer agent (quarry-answer) and one plain call (quarry-chat) as OpenAI-compatible models (stream and non-stream)
import { requireCaller } from "@/lib/auth/caller";
import { parseBody } from "@/lib/http";
import { openAiOtherMethods, openAiRoute } from "@/lib/api/openai-error";
import { chatCompletion } from "@/lib/answer/chat";
import { chatRequestSchema, retryOf } from "@/lib/answer/openai";

export const dynamic = "force-dynamic";

export const POST = openAiRoute(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const body = await parseBody(request, chatRequestSchema, "chat");
  return chatCompletion({ body, userId, signal: request.signal, ...retryOf(request) });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = openAiOtherMethods("POST");
