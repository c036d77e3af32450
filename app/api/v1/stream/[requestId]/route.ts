// GET /api/v1/stream/:requestId – the answer run's events as server-sent events (Last-Event-ID resumes; 204 once the run ended and its end was received).
// A browser app on another origin (ANSWER_CORS_ORIGINS) follows it with EventSource, which sends no
// Authorization header: ?token= with the run's stream token (returned with the run) reads this run only.
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { credentialSignal } from "@/lib/auth/api-tokens-watch";
import { AppError } from "@/lib/errors";
import { followAnswer, SSE_HEADERS, sseBody } from "@/lib/answer/stream";
import { verifyStreamToken } from "@/lib/answer/stream-token";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ requestId: string }> }) => {
  const { requestId } = await params;
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  let userId: string | null;
  let signal = request.signal;
  if (token !== null) {
    const verified = verifyStreamToken(token, requestId);
    if (!verified) throw new AppError("unauthorized:stream_token", "The stream token is not valid for this run, or has expired: get a new one with GET /api/v1/answers/:requestId");
    userId = verified.userId;
  } else {
    const caller = await requireCaller(request);
    userId = caller.userId;
    // It ends when the caller's token is revoked or session ends.
    signal = credentialSignal(caller, request.signal);
  }
  const header = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId");
  const lastEventId = header !== null && /^\d+$/.test(header.trim()) ? Number(header.trim()) : undefined;
  const { events, over } = await followAnswer({ requestId, userId, lastEventId, signal });
  // 204 tells an EventSource to stop reconnecting: the run ended and this client saw its end.
  if (over) return new Response(null, { status: 204 });
  return new Response(sseBody(events, signal), {
    headers: SSE_HEADERS,
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
