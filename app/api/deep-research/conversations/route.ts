// GET /api/deep-research/conversations – the caller's conversations, newest first (?status, ?q, ?limit, ?cursor)
import { otherMethods, parseQuery, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { listQuerySchema } from "@/lib/deep-research/schema";
import { listUserConversations } from "@/lib/deep-research/service";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  return Response.json(await listUserConversations({ userId, ...parseQuery(request, listQuerySchema, "conversations") }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
