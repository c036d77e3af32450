// GET /api/research/:id/error-output – error-output.md of a failed research
import { loadResearchGraph } from "@/lib/db/research";
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";
import { renderErrorOutput } from "@/lib/research/error-output";
import { requireCaller } from "@/lib/auth/caller";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  const graph = await loadResearchGraph({ id, userId });
  if (!graph) throw new AppError("not_found:research", "Research not found");
  if (graph.status !== "failed") throw new AppError("not_found:error_output", `Only a failed research has an error output (status: ${graph.status})`);
  // Rendered from the database, which holds everything the file written at failure time does.
  return new Response(renderErrorOutput(graph), {
    headers: { "Content-Type": "text/markdown; charset=utf-8", "Content-Disposition": `inline; filename="error-output.md"` },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
