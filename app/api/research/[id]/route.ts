// GET /api/research/:id – the research in its public shape; DELETE – delete it (cancelling a run)
import { withResearchLinks } from "@/lib/api/research-links";
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { deleteResearchById, getResearchView } from "@/lib/research/service";

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  return Response.json(withResearchLinks(await getResearchView({ id, userId })));
});

export const DELETE = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  await deleteResearchById({ id, userId });
  return new Response(null, { status: 204 });
});

export const { POST, PUT, PATCH, OPTIONS } = otherMethods("GET", "DELETE");
