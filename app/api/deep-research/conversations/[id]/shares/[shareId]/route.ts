// DELETE /api/deep-research/conversations/:id/shares/:shareId – revoke a share link of one's own conversation
import { shareLinkRoutes } from "@/lib/api/share-link-routes";
import { otherMethods } from "@/lib/http";

export const DELETE = shareLinkRoutes((id) => ({ conversationId: id })).revoke;
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods("DELETE");
