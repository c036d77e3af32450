// /api/* that no route matches – a JSON 404 rather than the HTML not-found page
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http";

const notFound = route(async () => {
  throw new AppError("not_found:api", "No API endpoint at this path. See /api-reference (or /api/openapi.json).");
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
