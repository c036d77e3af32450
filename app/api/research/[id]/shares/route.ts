// GET /api/research/:id/shares – the research's share links; POST – create one (token returned once)
import { requireCaller } from "@/lib/auth/caller";
import { parseJsonBody } from "@/lib/auth/http";
import { createShareSchema } from "@/lib/auth/schema";
import { createShareLink, listShareLinks } from "@/lib/auth/share-links";
import { toErrorResponse } from "@/lib/errors";

type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  try {
    const { userId } = await requireCaller(request);
    const { id } = await params;
    return Response.json({ shareLinks: await listShareLinks({ userId, researchId: id }) }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}

export async function POST(request: Request, { params }: Context): Promise<Response> {
  try {
    const { userId } = await requireCaller(request);
    const { id } = await params;
    const input = await parseJsonBody(request, createShareSchema, "bad_request:share");
    const { token, shareLink } = await createShareLink({ userId, researchId: id, expiresInDays: input.expiresInDays });
    const url = new URL(`/share/${token}`, request.url).pathname;
    return Response.json({ token, path: url, shareLink }, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}
