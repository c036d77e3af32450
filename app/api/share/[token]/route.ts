// GET /api/share/:token – the read-only JSON of a shared research ({research}) or Deep Research
// conversation ({conversation}); no sign-in; 404 for a bad link
import { loadShared } from "@/lib/api/shared";
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";

export const GET = route(async (_request: Request, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  const shared = await loadShared(token);
  if (!shared) throw new AppError("not_found:share", "This link does not exist, was revoked or has expired.");
  return Response.json(shared, { headers: { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
