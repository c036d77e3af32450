// DELETE /api/research/:id/shares/:shareId – revoke a share link of one's own research
import { requireCaller } from "@/lib/auth/caller";
import { revokeShareLink } from "@/lib/auth/share-links";
import { otherMethods, route } from "@/lib/http";

export const DELETE = route(async (request: Request, { params }: { params: Promise<{ id: string; shareId: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id, shareId } = await params;
  return Response.json({ shareLink: await revokeShareLink({ userId, researchId: id, id: shareId }) });
});

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods("DELETE");
