// POST /api/clarification/generate-questions – questions before a Deep Research conversation
import { otherMethods, parseBody, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { generateQuestions } from "@/lib/deep-research/clarification";
import { questionsSchema } from "@/lib/deep-research/schema";

export const POST = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const body = await parseBody(request, questionsSchema, "clarification");
  return Response.json(await generateQuestions({ userId, ...body }));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
