// Request shapes of the collections API.
import { z } from "zod";
import { text } from "../validation/text";

export const collectionNameSchema = z.object({
  name: text({ error: "name is required" }).trim().min(1, "name must not be empty").max(100, "name must be at most 100 characters"),
});

export const searchQuerySchema = z.object({
  q: text({ error: "q is required" }).trim().min(1, "q must not be empty").max(1_000, "q must be at most 1000 characters"),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

const DOCUMENT_SORT_KEYS = ["name", "type", "size", "added", "status"] as const;
export const DOCUMENT_TYPES = ["pdf", "markdown", "text", "html", "docx"] as const;
export const DOCUMENT_STATUSES = ["pending", "indexing", "ready", "failed"] as const;
const oneOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: `${field} must be one of ${values.join(", ")}` });
const wholeNumber = (field: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${field} must be a whole number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

/** GET /api/collections/:id/documents: one page of the documents, sorted and filtered in the database. */
export const documentListQuerySchema = z.object({
  page: wholeNumber("page", 1, 1_000_000).default(1),
  limit: wholeNumber("limit", 1, 200).default(50),
  /** added: the upload's time (the default, oldest first, as the collection's own listing). */
  sort: oneOf("sort", DOCUMENT_SORT_KEYS).default("added"),
  order: oneOf("order", ["asc", "desc"] as const).default("asc"),
  type: oneOf("type", DOCUMENT_TYPES).optional(),
  status: oneOf("status", DOCUMENT_STATUSES).optional(),
  /** Part of the file name or title. */
  name: text({ error: "name must be text" }).trim().max(200, "name must be at most 200 characters").optional(),
});
export type DocumentListQuery = z.infer<typeof documentListQuerySchema>;
