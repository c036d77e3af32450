// GET /api/clarification/:sessionId – a clarification session: questions, answers, plan, feedback history
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { getSession } from "@/lib/deep-research/clarification";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ sessionId: string }> }) => {
  const { userId } = await requireCaller(request);
  const { sessionId } = await params;
  return Response.json(await getSession({ userId, sessionId }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
