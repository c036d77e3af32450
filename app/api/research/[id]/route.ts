// GET /api/research/:id – the research in its public shape (`?view=status`: the lean status view,
// counts and the tree's shape, for pollers); DELETE – delete it (cancelling a run)
import { parseQuery } from "@/lib/api/body";
import { researchLinks, withResearchLinks } from "@/lib/api/research-links";
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { researchViewQuerySchema } from "@/lib/research/schema";
import { deleteResearchById, getResearchStatusView, getResearchView } from "@/lib/research/service";

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  const { view } = parseQuery(request, researchViewQuerySchema, "research");
  if (view === "status") return Response.json({ ...(await getResearchStatusView({ id, userId })), links: researchLinks(id) });
  return Response.json(withResearchLinks(await getResearchView({ id, userId })));
});

export const DELETE = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  await deleteResearchById({ id, userId });
  return new Response(null, { status: 204 });
});

export const { POST, PUT, PATCH, OPTIONS } = otherMethods("GET", "DELETE");
