// DELETE /api/research/:id/shares/:shareId – revoke a share link of one's own research
import { requireCaller } from "@/lib/auth/caller";
import { revokeShareLink } from "@/lib/auth/share-links";
import { toErrorResponse } from "@/lib/errors";

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string; shareId: string }> }): Promise<Response> {
  try {
    const { userId } = await requireCaller(request);
    const { id, shareId } = await params;
    return Response.json({ shareLink: await revokeShareLink({ userId, researchId: id, id: shareId }) });
  } catch (error) {
    return toErrorResponse(error);
  }
}
