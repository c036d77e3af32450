// GET /api/deep-research/conversations/:id/stream – snapshot, then live updates (AI SDK UI message stream)
import { createUIMessageStreamResponse } from "ai";
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { conversationStream } from "@/lib/deep-research/stream";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  return createUIMessageStreamResponse({
    stream: await conversationStream({ id, userId, signal: request.signal }),
    keepAliveMs: 15_000,
    headers: { "cache-control": "no-cache, no-transform" },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
