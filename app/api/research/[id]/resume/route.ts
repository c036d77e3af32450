// POST /api/research/:id/resume – continue a failed or cancelled research from where it stopped, or
// make a paused one retry its LLM provider at once
import { acceptedResearch } from "@/lib/api/research-links";
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { resumeResearch } from "@/lib/research/service";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  const resumed = await resumeResearch({ id, userId });
  return acceptedResearch(resumed);
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
