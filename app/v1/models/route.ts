// GET /v1/models – the models this OpenAI-compatible API serves: the answer agent (quarry-answer) and
// the plain chat model (quarry-chat, for a chat UI's task model)
import { requireCaller } from "@/lib/auth/caller";
import { openAiOtherMethods, openAiRoute } from "@/lib/api/openai-error";
import { MODELS, modelInfo } from "@/lib/answer/openai";

export const GET = openAiRoute(async (request: Request) => {
  await requireCaller(request);
  return Response.json({ object: "list", data: MODELS.map(modelInfo) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = openAiOtherMethods("GET");
