// Route-handler helpers: JSON body parsing with zod (400 naming the field), and one wrapper that
// maps every thrown error to the JSON error shape.
import { z } from "zod";
import { AppError, toErrorResponse } from "./errors";

export async function parseBody<T>(request: Request, schema: z.ZodType<T>, surface: string): Promise<T> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new AppError(`bad_request:${surface}`, "Request body must be a JSON object");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new AppError(`bad_request:${surface}`, "Request body must be a JSON object");
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue.path.length ? String(issue.path[0]) : undefined;
    throw new AppError(`bad_request:${surface}`, issue.message, { field });
  }
  return result.data;
}

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/** Wraps a route handler so that any error becomes `{ error, code }` with the right status. */
export function route<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}
