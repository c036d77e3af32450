// GET /api/deep-research/conversations – the caller's conversations, newest first (?limit, ?cursor)
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { AppError } from "@/lib/errors";
import { listQuerySchema } from "@/lib/deep-research/schema";
import { listUserConversations } from "@/lib/deep-research/service";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = listQuerySchema.safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request:conversations", `${String(issue.path[0])}: ${issue.message}`, { field: String(issue.path[0]) });
  }
  return Response.json(await listUserConversations({ userId, ...parsed.data }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
