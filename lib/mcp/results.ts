// Tool results: structured content (checked against the tool's output schema by the SDK and by the
// client) with a text rendering for clients that show text only; and failures as tool errors in the
// HTTP API's shape, {error, code, field?}, so that a client (or its model) can tell a bad argument
// from a limit or a missing id, and when to retry.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors";

export function toolResult<T extends Record<string, unknown>>(structured: T, text: string): CallToolResult & { structuredContent: T } {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/** A failure as a tool error (never structured content: that would have to match the output schema). */
export function toolError(error: unknown): CallToolResult {
  if (error instanceof AppError) {
    const body = {
      error: error.message,
      code: error.code,
      ...(error.field ? { field: error.field } : {}),
      ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: Math.max(1, Math.ceil(error.retryAfterSeconds)) } : {}),
    };
    return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
  }
  // As the HTTP API: an unexpected error is logged, and the client gets a generic message.
  console.error("[quarry] MCP tool failed:", error);
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: "Something went wrong on our side. Please try again.", code: "internal:server" }) }] };
}

/** A request's zod issue as the HTTP API words it: a 400 naming the field. */
export function badArgument(subject: string, issue: { path: PropertyKey[]; message: string }): AppError {
  const field = issue.path.length ? issue.path.map(String).join(".") : undefined;
  return new AppError(`bad_request:${subject}`, issue.message, { field });
}
