// POST /api/research/questions – create a research draft with tailored follow-up questions
import { otherMethods, parseBody, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { questionsRequestSchema } from "@/lib/research/schema";
import { askFollowupQuestions } from "@/lib/research/service";

export const POST = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const input = await parseBody(request, questionsRequestSchema(), "questions");
  return Response.json(await askFollowupQuestions({ userId, input }));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
