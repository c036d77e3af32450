// POST /api/clarification/submit-answers – the answers, and the plan written from them
import { otherMethods, parseBody, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { submitAnswers } from "@/lib/deep-research/clarification";
import { answersSchema } from "@/lib/deep-research/schema";

export const POST = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const body = await parseBody(request, answersSchema, "clarification");
  return Response.json(await submitAnswers({ userId, ...body }));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
