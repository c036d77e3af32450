// GET /api/runs/:id/stream – any engine's run: its snapshot, then every event in the run envelope
// newer than it (AI SDK UI message stream), until the run's last event
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { runEventStream } from "@/lib/api/runs";
import { runStreamResponse } from "@/lib/api/run-stream";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  return runStreamResponse(await runEventStream({ id, userId, signal: request.signal }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
