// POST /api/research/:id/write-report – write the report of a failed or cancelled research from what it found
import { acceptedResearch } from "@/lib/api/research-links";
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { writeReportNow } from "@/lib/research/service";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  const started = await writeReportNow({ id, userId });
  return acceptedResearch(started);
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
