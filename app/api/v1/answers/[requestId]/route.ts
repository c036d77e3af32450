// GET /api/v1/answers/:requestId – one answer run: status, answer, references, steps and usage; while
// it runs, a fresh stream token (for EventSource from another origin: /api/v1/stream/:requestId?token=…)
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { getAnswer } from "@/lib/answer/service";
import { issueStreamToken } from "@/lib/answer/stream-token";

export const GET = route(async (request: Request, { params }: { params: Promise<{ requestId: string }> }) => {
  const { userId } = await requireCaller(request);
  const { requestId } = await params;
  const answer = await getAnswer({ requestId, userId });
  const going = answer.status === "running" || answer.status === "queued";
  return Response.json({ ...answer, ...(going ? issueStreamToken({ requestId, userId }) : {}) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
