// DELETE /api/research/:id/shares/:shareId – revoke a share link of one's own research
import { shareLinkRoutes } from "@/lib/api/share-link-routes";
import { otherMethods } from "@/lib/http";

export const DELETE = shareLinkRoutes((id) => ({ researchId: id })).revoke;
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods("DELETE");
