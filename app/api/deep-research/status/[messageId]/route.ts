// GET /api/deep-research/status/:messageId – a start's progress, then its result or error
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { deepResearchStatus } from "@/lib/deep-research/service";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ messageId: string }> }) => {
  const { userId } = await requireCaller(request);
  const { messageId } = await params;
  return Response.json(await deepResearchStatus({ messageId, userId }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
