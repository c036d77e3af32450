// GET|POST|PUT|DELETE /admin/queues/… – Bull Board, the queue dashboard (queue mode), for administrators only
import { route } from "@/lib/http";
import { AppError } from "@/lib/errors";
import { getCaller } from "@/lib/auth/caller";
import { assertSameOrigin } from "@/lib/auth/csrf";
import { isAdmin } from "@/lib/auth/users";
import { getEnv } from "@/lib/env";
import { queueBoard } from "@/lib/queue/board";

export const dynamic = "force-dynamic";

const handle = route(async (request: Request) => {
  const caller = await getCaller(request);
  // Anyone but an administrator (and everyone without queue mode) sees no dashboard here at all.
  if (!caller || !getEnv().REDIS_URL || !(await isAdmin(caller.userId))) throw new AppError("not_found:page", "Not found.");
  // Its buttons (retry, clean, pause) change state: a signed-in browser's must come from this site.
  if (caller.via === "session" && request.method !== "GET") assertSameOrigin(request);
  return queueBoard().fetch(request);
});

export { handle as GET, handle as POST, handle as PUT, handle as DELETE };
