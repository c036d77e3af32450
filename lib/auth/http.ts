import type { z } from "zod";
import { AppError } from "../errors";

/** Parses a JSON body (an empty body counts as `{}`) with a zod schema; 400 naming the first bad field. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S, code: `bad_request:${string}`): Promise<z.infer<S>> {
  let body: unknown = {};
  const text = await request.text();
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError(code, "The request body must be JSON.");
    }
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? String(issue.path[0]) : undefined;
    throw new AppError(code, field ? `${field}: ${issue.message}` : (issue?.message ?? "Invalid request."), { field });
  }
  return parsed.data;
}
