// POST /api/research/start – save the answers and parameters, start the run, reply at once
import { acceptedResearch } from "@/lib/api/research-links";
import { otherMethods, parseBody, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { startRequestSchema } from "@/lib/research/schema";
import { startResearch } from "@/lib/research/service";

export const POST = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const input = await parseBody(request, startRequestSchema(), "research");
  const started = await startResearch({ userId, input });
  return acceptedResearch(started);
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
