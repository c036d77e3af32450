// POST /api/v1/answers/:requestId/cancel – stop a running answer run
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { cancelAnswer } from "@/lib/answer/service";

export const POST = route(async (request: Request, { params }: { params: Promise<{ requestId: string }> }) => {
  const { userId } = await requireCaller(request);
  const { requestId } = await params;
  return Response.json(await cancelAnswer({ requestId, userId }));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
