// A URL no route can take, answered by proxy.ts before any handler runs:
// - a path whose percent-encoding does not decode (`/share/%ff`, `/api/research/%`) makes Next throw
//   while decoding route params: a bare 500;
// - a NUL (`%00`) in the path or in a query parameter reaches the database as an id or a filter, and
//   PostgreSQL refuses U+0000 in text: a 500 there, while SQLite answers. Refused here, on both.
// Query parameters cannot carry a lone surrogate: URLSearchParams decodes bad UTF-8 to U+FFFD.
import { AppError } from "../errors";
import { storable, unstorableProblem } from "../validation/text";
import { toErrorResponse } from "./errors";
import { openAiErrorResponse } from "./openai-error";

const UNDECODABLE = "Part of the address is not valid percent-encoding, so there is nothing to open.";
const HAS_NUL = "The address contains a NUL character (%00), so there is nothing to open.";

/** The API's error and the page's sentence for a URL no route can take; null for a good URL. */
function problemOf(url: URL): { error: AppError; why: string } | null {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return { error: new AppError("bad_request:path", "The request path is not valid percent-encoded UTF-8."), why: UNDECODABLE };
  }
  if (path.includes("\u0000")) return { error: new AppError("bad_request:path", "The request path must not contain NUL characters (%00)."), why: HAS_NUL };
  for (const [name, value] of url.searchParams) {
    const problem = unstorableProblem(name) ?? unstorableProblem(value);
    if (problem) {
      const field = storable(name);
      return { error: new AppError("bad_request:query", `The query parameter ${field || "(unnamed)"} ${problem}.`, { field }), why: HAS_NUL };
    }
  }
  return null;
}

const page = (why: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bad request – Quarry</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 5rem auto; text-align: center; color: #27272a">
<p style="font-family: monospace; color: #71717a">400</p>
<h1 style="font-size: 1.5rem">This address is malformed</h1>
<p>${why} Check the link you followed.</p>
<p><a href="/">Go to Quarry</a></p>
</body></html>
`;

/** 400 for a URL no route can take: `{ error, code }` under /api, OpenAI's shape under /v1, an HTML page elsewhere; null for a good URL. */
export function malformedUrlResponse(url: URL): Response | null {
  const problem = problemOf(url);
  if (!problem) return null;
  const { error, why } = problem;
  const { pathname } = url;
  if (pathname === "/api" || pathname.startsWith("/api/")) return toErrorResponse(error);
  if (pathname === "/v1" || pathname.startsWith("/v1/")) return openAiErrorResponse(error);
  return new Response(page(why), { status: 400, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
