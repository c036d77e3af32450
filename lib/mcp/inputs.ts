// Pieces of the tools' input schemas, and their arguments checked by the HTTP API's own request schemas
// (one source of truth: the same limits, the same messages, the same defaults).
import { z } from "zod";
import type { Sources } from "../knowledge/sources";
import { badArgument } from "./results";

/** Where a run searches, as tool arguments: flatter than the HTTP API's `sources` object. */
export const sourcesShape = {
  collections: z
    .array(z.string().min(1).max(100))
    .max(20)
    .optional()
    .describe("Ids of your document collections to search as well (the web app's Documents page, or GET /api/collections). Default: none."),
  web: z.boolean().optional().describe("Search the web (default true). Set false to search the collections only."),
};

export function sourcesOf(args: { collections?: string[]; web?: boolean }): Sources | undefined {
  if (args.collections === undefined && args.web === undefined) return undefined;
  return { web: args.web ?? true, collections: args.collections ?? [] };
}

/**
 * The arguments as the HTTP API's schema takes them, or a 400 naming the tool's argument (`names`
 * maps the API's field names to the tool's).
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, subject: string, names: Record<string, string> = {}): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const head = issue.path[0] === undefined ? undefined : String(issue.path[0]);
  throw badArgument(subject, { path: head === undefined ? [] : [names[head] ?? head], message: issue.message });
}
