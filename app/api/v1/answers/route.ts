// GET /api/v1/answers – the caller's answer runs, newest first (history; ?status, ?q, ?limit, ?before)
import { otherMethods, parseQuery, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { listAnswersSchema } from "@/lib/answer/schema";
import { listAnswers } from "@/lib/answer/service";

export const GET = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  return Response.json(await listAnswers({ userId, ...parseQuery(request, listAnswersSchema, "answers") }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
