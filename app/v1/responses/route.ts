// POST /v1/responses – the answer agent (quarry-answer) and one plain call (quarry-chat) through OpenAI's Responses API (stream and non-stream)
import { requireCaller } from "@/lib/auth/caller";
import { credentialSignal } from "@/lib/auth/api-tokens-watch";
import { parseBody } from "@/lib/http";
import { openAiOtherMethods, openAiRoute } from "@/lib/api/openai-error";
import { retryOf } from "@/lib/answer/openai";
import { createResponse, responsesRequestSchema } from "@/lib/answer/responses";

// The request's signal also aborts when the caller's token is revoked or expires (or its session ends):
// the answer's stream then ends with an error saying so; the lib releases it when the reply is done.
export const dynamic = "force-dynamic";

export const POST = openAiRoute(async (request: Request) => {
  const caller = await requireCaller(request);
  const body = await parseBody(request, responsesRequestSchema, "responses");
  return createResponse({ body, userId: caller.userId, signal: credentialSignal(caller, request.signal), ...retryOf(request) });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = openAiOtherMethods("POST");
