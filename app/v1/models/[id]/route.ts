// GET /v1/models/:id – one model of this OpenAI-compatible API; 404 (OpenAI's shape) for any other id
import { requireCaller } from "@/lib/auth/caller";
import { AppError } from "@/lib/errors";
import { openAiOtherMethods, openAiRoute } from "@/lib/api/openai-error";
import { ANSWER_MODEL, MODEL_INFO } from "@/lib/answer/openai";

export const GET = openAiRoute(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  await requireCaller(request);
  const { id } = await params;
  if (id !== ANSWER_MODEL) throw new AppError("not_found:model", `The model '${id}' does not exist; use ${ANSWER_MODEL}`, { field: "model" });
  return Response.json(MODEL_INFO);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = openAiOtherMethods("GET");
