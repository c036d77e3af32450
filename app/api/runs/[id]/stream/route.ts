// GET /api/runs/:id/stream – any engine's run: its snapshot, then every event in the run envelope
// newer than it (AI SDK UI message stream), until the run's last event
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { credentialSignal } from "@/lib/auth/api-tokens-watch";
import { runEventStream } from "@/lib/api/runs";
import { runStreamResponse } from "@/lib/api/run-stream";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const caller = await requireCaller(request);
  const { id } = await params;
  // It ends when the caller's token is revoked or session ends.
  return runStreamResponse(await runEventStream({ id, userId: caller.userId, signal: credentialSignal(caller, request.signal) }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
