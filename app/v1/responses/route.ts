// POST /v1/responses – the answer agent (quarry-answer) and one plain call (quarry-chat) through OpenAI's Responses API (stream and non-stream)
import { requireCaller } from "@/lib/auth/caller";
import { parseBody } from "@/lib/http";
import { openAiOtherMethods, openAiRoute } from "@/lib/api/openai-error";
import { retryOf } from "@/lib/answer/openai";
import { createResponse, responsesRequestSchema } from "@/lib/answer/responses";

export const dynamic = "force-dynamic";

export const POST = openAiRoute(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const body = await parseBody(request, responsesRequestSchema, "responses");
  return createResponse({ body, userId, signal: request.signal, ...retryOf(request) });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = openAiOtherMethods("POST");
