// POST /api/clarification/plan-feedback – approve the plan, or have it rewritten from feedback
import { otherMethods, parseBody, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { planFeedback } from "@/lib/deep-research/clarification";
import { feedbackSchema } from "@/lib/deep-research/schema";

export const POST = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const body = await parseBody(request, feedbackSchema, "clarification");
  return Response.json(await planFeedback({ userId, ...body }));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
