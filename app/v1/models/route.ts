// GET /v1/models – the models this OpenAI-compatible API serves: the answer agent
import { requireCaller } from "@/lib/auth/caller";
import { openAiOtherMethods, openAiRoute } from "@/lib/api/openai-error";
import { ANSWER_MODEL } from "@/lib/answer/openai";

export const GET = openAiRoute(async (request: Request) => {
  await requireCaller(request);
  return Response.json({ object: "list", data: [{ id: ANSWER_MODEL, object: "model", created: 1_767_225_600, owned_by: "quarry" }] });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = openAiOtherMethods("GET");
