// GET /api/research/:id/stream – snapshot, then live progress (AI SDK UI message stream)
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { researchStream } from "@/lib/api/research-stream";
import { runStreamResponse } from "@/lib/api/run-stream";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  return runStreamResponse(await researchStream({ id, signal: request.signal, userId }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
