// DELETE /api/tokens/:id – revoke one of the caller's API tokens (404 for anyone else's)
import { revokeApiToken } from "@/lib/auth/api-tokens";
import { requireCaller } from "@/lib/auth/caller";
import { otherMethods, route } from "@/lib/http";

export const DELETE = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  return Response.json({ apiToken: await revokeApiToken({ userId, id }) });
});

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods("DELETE");
