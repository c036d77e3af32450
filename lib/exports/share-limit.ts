// Signed-out downloads through a share link, limited per link (RATE_LIMIT_SHARE_EXPORTS_PER_HOUR):
// anyone holding a link may download its report, but not make the server typeset it without end.
// Per process, like the sign-in limiter it reuses (lib/auth/attempt-limiter.ts).
import { createHash } from "node:crypto";
import { AttemptLimiter } from "../auth/attempt-limiter";
import { getEnv } from "../env";
import { AppError } from "../errors";

const HOUR_MS = 60 * 60 * 1000;
const globalForShares = globalThis as unknown as { quarryShareExportLimiter?: AttemptLimiter };

/** Counts one export through the link; a 429 once the link has used up its hour. */
export function takeShareExport(token: string): void {
  const limit = getEnv().RATE_LIMIT_SHARE_EXPORTS_PER_HOUR;
  const limiter = (globalForShares.quarryShareExportLimiter ??= new AttemptLimiter(limit, HOUR_MS));
  // The token's hash: the limiter's memory holds no usable link.
  const key = createHash("sha256").update(token).digest("base64url");
  if (!limiter.take(key)) {
    throw new AppError("rate_limit:share_export", `This link's downloads are limited to ${limit} an hour; try again later.`, { retryAfterSeconds: 15 * 60 });
  }
}
