// GET /api/research/:id/stream – snapshot, then live progress (AI SDK UI message stream)
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { credentialSignal } from "@/lib/auth/api-tokens-watch";
import { researchStream } from "@/lib/api/research-stream";
import { runStreamResponse } from "@/lib/api/run-stream";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const caller = await requireCaller(request);
  const { id } = await params;
  // It ends when the caller's token is revoked or session ends.
  return runStreamResponse(await researchStream({ id, signal: credentialSignal(caller, request.signal), userId: caller.userId }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
