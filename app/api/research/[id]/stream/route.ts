// GET /api/research/:id/stream – snapshot, then live progress (AI SDK UI message stream)
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { createUIMessageStreamResponse } from "ai";
import { researchStream } from "@/lib/api/research-stream";
import { runStreamHeaders } from "@/lib/api/run-stream";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  const { stream, final } = await researchStream({ id, signal: request.signal, userId });
  // A finished research's stream is its snapshot alone: compressed, it is a fraction of the size.
  return createUIMessageStreamResponse({ stream, keepAliveMs: 15_000, headers: runStreamHeaders({ final }) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
