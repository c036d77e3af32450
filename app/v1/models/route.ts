// GET /v1/models – the models this OpenAI-compatible API serves: the answer agent
import { requireCaller } from "@/lib/auth/caller";
import { openAiOtherMethods, openAiRoute } from "@/lib/api/openai-error";
import { MODEL_INFO } from "@/lib/answer/openai";

export const GET = openAiRoute(async (request: Request) => {
  await requireCaller(request);
  return Response.json({ object: "list", data: [MODEL_INFO] });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = openAiOtherMethods("GET");
