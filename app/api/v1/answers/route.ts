// GET /api/v1/answers – the caller's answer runs, newest first (history)
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { listAnswersSchema } from "@/lib/answer/schema";
import { listAnswers } from "@/lib/answer/service";

export const GET = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const parsed = listAnswersSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request:answers", issue.message, { field: String(issue.path[0] ?? "") || undefined });
  }
  return Response.json(await listAnswers({ userId, ...parsed.data }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
