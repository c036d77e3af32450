// GET /api/research/:id/shares – the research's share links; POST – create one (token returned once)
import { requireCaller } from "@/lib/auth/caller";
import { createShareSchema } from "@/lib/auth/schema";
import { createShareLink, listShareLinks } from "@/lib/auth/share-links";
import { otherMethods, parseBody, route } from "@/lib/http";

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  return Response.json({ shareLinks: await listShareLinks({ userId, researchId: id }) }, { headers: { "Cache-Control": "no-store" } });
});

export const POST = route(async (request: Request, { params }: Context) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  // No body: a link that does not expire.
  const input = await parseBody(request, createShareSchema, "share", { optional: true });
  const { token, shareLink } = await createShareLink({ userId, researchId: id, expiresInDays: input.expiresInDays });
  const url = new URL(`/share/${token}`, request.url).pathname;
  return Response.json({ token, path: url, shareLink }, { status: 201, headers: { "Cache-Control": "no-store" } });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
