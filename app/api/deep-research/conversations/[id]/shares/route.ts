// GET /api/deep-research/conversations/:id/shares – the conversation's share links; POST – create one (token returned once)
import { shareLinkRoutes } from "@/lib/api/share-link-routes";
import { otherMethods } from "@/lib/http";

const shares = shareLinkRoutes((id) => ({ conversationId: id }));
export const GET = shares.list;
export const POST = shares.create;
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
