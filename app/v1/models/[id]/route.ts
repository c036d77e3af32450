// GET /v1/models/:id – one model of this OpenAI-compatible API; 404 (OpenAI's shape) for any other id
import { requireCaller } from "@/lib/auth/caller";
import { openAiOtherMethods, openAiRoute } from "@/lib/api/openai-error";
import { isModel, modelInfo, unknownModel } from "@/lib/answer/openai";

export const GET = openAiRoute(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  await requireCaller(request);
  const { id } = await params;
  if (!isModel(id)) throw unknownModel(id);
  return Response.json(modelInfo(id));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = openAiOtherMethods("GET");
