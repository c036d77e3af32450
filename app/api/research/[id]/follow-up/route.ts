// POST /api/research/:id/follow-up – a new research on a follow-up question that builds on what this
// one found (or, with query_id, on one branch of it: "go deeper"), linked to it
import { acceptedResearch } from "@/lib/api/research-links";
import { otherMethods, parseBody, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { followUpRequestSchema } from "@/lib/research/schema";
import { startFollowUp } from "@/lib/research/service";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  const input = await parseBody(request, followUpRequestSchema(), "research");
  return acceptedResearch(await startFollowUp({ id, userId, input }));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
