// POST /api/account/password – change the password ({ currentPassword, newPassword }): every
// session of the user ends (sign in again); API tokens keep working until revoked
import { requireCaller } from "@/lib/auth/caller";
import { changePasswordSchema } from "@/lib/auth/schema";
import { changePassword } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import { otherMethods, parseBody, route } from "@/lib/http";

export const POST = route(async (request: Request) => {
  const input = await parseBody(request, changePasswordSchema, "account");
  const { userId, via } = await requireCaller(request);
  // A leaked token must not be able to lock its owner out.
  if (via !== "session") throw new AppError("forbidden:token", "API tokens cannot change the password: use Settings in the browser.");
  await changePassword({ userId, ...input });
  return new Response(null, { status: 204 });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
