// GET /api/account – who the caller is ({ email }). The header's account menu reads this rather
// than Auth.js's /api/auth/session, which re-issues the session cookie on every call: a response
// landing after a sign-out would sign the user back in (see lib/auth/session-refresh.ts).
import { requireCaller } from "@/lib/auth/caller";
import { getUserById } from "@/lib/db/users";
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";

export const GET = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const user = await getUserById({ id: userId });
  if (!user) throw new AppError("unauthorized:auth", "Sign in, or send a valid API token as Authorization: Bearer <token>.");
  return Response.json({ email: user.email }, { headers: { "Cache-Control": "private, no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
