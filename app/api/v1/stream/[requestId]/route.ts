// GET /api/v1/stream/:requestId – the answer run's events as server-sent events (Last-Event-ID resumes; 204 once the run ended and its end was received)
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { followAnswer, SSE_HEADERS, sseBody } from "@/lib/answer/stream";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ requestId: string }> }) => {
  const { userId } = await requireCaller(request);
  const { requestId } = await params;
  const header = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId");
  const lastEventId = header !== null && /^\d+$/.test(header.trim()) ? Number(header.trim()) : undefined;
  const { events, over } = await followAnswer({ requestId, userId, lastEventId, signal: request.signal });
  // 204 tells an EventSource to stop reconnecting: the run ended and this client saw its end.
  if (over) return new Response(null, { status: 204 });
  return new Response(sseBody(events, request.signal), {
    headers: SSE_HEADERS,
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
