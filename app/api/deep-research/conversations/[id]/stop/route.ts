// POST /api/deep-research/conversations/:id/stop – end the loop now (the phase at work is aborted; saved phases stay)
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { stopConversation } from "@/lib/deep-research/service";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  return Response.json(await stopConversation({ id, userId }), { status: 202 });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
