// POST /api/v1/query – ask the answer agent a question; reply at once with where to follow it (and a
// stream token, for EventSource from another origin: /api/v1/stream/:requestId?token=…)
import { otherMethods, parseBody, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { queryRequestSchema } from "@/lib/answer/schema";
import { startAnswer } from "@/lib/answer/service";
import { issueStreamToken } from "@/lib/answer/stream-token";

export const POST = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const input = await parseBody(request, queryRequestSchema(), "query");
  const { requestId, streamUrl } = await startAnswer({ userId, ...input });
  return Response.json(
    { requestId, streamUrl, ...issueStreamToken({ requestId, userId }) },
    { status: 202, headers: { Location: `/api/v1/answers/${encodeURIComponent(requestId)}`, "x-request-id": requestId } },
  );
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
