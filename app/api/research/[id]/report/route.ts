// GET /api/research/:id/report – the Markdown report
import { getResearch } from "@/lib/db/research";
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  const research = await getResearch({ id, userId });
  if (!research) throw new AppError("not_found:research", "Research not found");
  if (!research.report) throw new AppError("not_found:report", `This research has no report yet (status: ${research.status})`);
  return new Response(research.report, {
    headers: {
      "Content-Type": "text/markdown; charset=utf-8",
      "Content-Disposition": `inline; filename="quarry-report-${id}.md"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
