// POST /api/research/:id/rerun – a new research with the same prompt, questions and answers, at the
// same depth × breadth or the one given ({ depth?, breadth? }); replies with the new research
import { acceptedResearch } from "@/lib/api/research-links";
import { otherMethods, parseBody, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { rerunRequestSchema, rerunResearch } from "@/lib/research/rerun";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const input = await parseBody(request, rerunRequestSchema(), "research", { optional: true });
  const { id } = await params;
  return acceptedResearch(await rerunResearch({ id, userId, input }));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
