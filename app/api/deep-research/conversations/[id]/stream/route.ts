// GET /api/deep-research/conversations/:id/stream – snapshot, then live updates (AI SDK UI message stream)
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { conversationStream } from "@/lib/api/deep-research-stream";
import { runStreamResponse } from "@/lib/api/run-stream";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  return runStreamResponse(await conversationStream({ id, userId, signal: request.signal }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
