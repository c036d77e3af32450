// A path whose percent-encoding does not decode (`/share/%ff`, `/api/research/%`) makes Next throw
// while decoding route params, before any handler runs: a bare 500. proxy.ts answers it first.
import { AppError } from "../errors";
import { toErrorResponse } from "./errors";
import { openAiErrorResponse } from "./openai-error";

function hasMalformedEncoding(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

const PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bad request – Quarry</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 5rem auto; text-align: center; color: #27272a">
<p style="font-family: monospace; color: #71717a">400</p>
<h1 style="font-size: 1.5rem">This address is malformed</h1>
<p>Part of the address is not valid percent-encoding, so there is nothing to open. Check the link you followed.</p>
<p><a href="/">Go to Quarry</a></p>
</body></html>
`;

/** 400 for a path that cannot be decoded: `{ error, code }` under /api, an HTML page elsewhere; null for a good path. */
export function malformedPathResponse(pathname: string): Response | null {
  if (!hasMalformedEncoding(pathname)) return null;
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    return toErrorResponse(new AppError("bad_request:path", "The request path is not valid percent-encoded UTF-8."));
  }
  if (pathname === "/v1" || pathname.startsWith("/v1/")) {
    return openAiErrorResponse(new AppError("bad_request:path", "The request path is not valid percent-encoded UTF-8."));
  }
  return new Response(PAGE, { status: 400, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
