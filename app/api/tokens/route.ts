// GET /api/tokens – the caller's API tokens; POST /api/tokens – create one (the token is returned once)
import { issueApiToken, listApiTokens } from "@/lib/auth/api-tokens";
import { requireCaller } from "@/lib/auth/caller";
import { createTokenSchema } from "@/lib/auth/schema";
import { AppError } from "@/lib/errors";
import { otherMethods, parseBody, route } from "@/lib/http";

export const GET = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  return Response.json({ tokens: await listApiTokens({ userId }) }, { headers: { "Cache-Control": "no-store" } });
});

export const POST = route(async (request: Request) => {
  const { userId, via } = await requireCaller(request);
  // A token that could mint tokens would outlive its own revocation.
  if (via !== "session") throw new AppError("forbidden:token", "API tokens cannot create tokens: use Settings in the browser, or `npm run token`.");
  const input = await parseBody(request, createTokenSchema, "token");
  const { token, apiToken } = await issueApiToken({ userId, name: input.name, days: input.days });
  return Response.json({ token, apiToken }, { status: 201, headers: { "Cache-Control": "no-store" } });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
