// DELETE /api/tokens/:id – revoke one of the caller's API tokens (404 for anyone else's)
import { revokeApiToken } from "@/lib/auth/api-tokens";
import { requireCaller } from "@/lib/auth/caller";
import { toErrorResponse } from "@/lib/errors";

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { userId } = await requireCaller(request);
    const { id } = await params;
    return Response.json({ apiToken: await revokeApiToken({ userId, id }) });
  } catch (error) {
    return toErrorResponse(error);
  }
}
