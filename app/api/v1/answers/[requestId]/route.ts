// GET /api/v1/answers/:requestId – one answer run: status, answer, references, steps and usage
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { getAnswer } from "@/lib/answer/service";

export const GET = route(async (request: Request, { params }: { params: Promise<{ requestId: string }> }) => {
  const { userId } = await requireCaller(request);
  const { requestId } = await params;
  return Response.json(await getAnswer({ requestId, userId }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
