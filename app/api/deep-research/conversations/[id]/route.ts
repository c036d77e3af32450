// GET /api/deep-research/conversations/:id – the world state, messages, plan, discoveries and run guard
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { getConversationView } from "@/lib/deep-research/service";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  return Response.json(await getConversationView({ id, userId }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
