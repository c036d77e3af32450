// Request schemas of the answer API (POST /api/v1/query) and the OpenAI-compatible endpoint.
import { z } from "zod";
import { getEnv } from "../env";
import { sourcesSchema } from "../knowledge/sources";
import { text } from "../validation/text";

export function queryRequestSchema() {
  const max = getEnv().ANSWER_MAX_BUDGET;
  return z.object({
    q: text({ error: "q must be a non-empty string" }).trim().min(1, { error: "q must be a non-empty string" }).max(10_000, { error: "q must be at most 10,000 characters" }),
    budget: z
      .number({ error: "budget must be a positive integer" })
      .int({ error: "budget must be a positive integer" })
      .positive({ error: "budget must be a positive integer" })
      .max(max, { error: `budget cannot exceed ${max} (ANSWER_MAX_BUDGET)` })
      .optional(),
    maxBadAttempt: z.number({ error: "maxBadAttempt must be an integer from 1 to 10" }).int({ error: "maxBadAttempt must be an integer from 1 to 10" }).min(1, { error: "maxBadAttempt must be an integer from 1 to 10" }).max(10, { error: "maxBadAttempt must be an integer from 1 to 10" }).optional(),
    requestId: text({ error: "requestId must be a string" }).trim().regex(/^[\w.:-]{1,100}$/, { error: "requestId must be 1–100 letters, digits, '.', ':', '_' or '-'" }).optional(),
    // Where it searches; default the web only (issue 22).
    sources: sourcesSchema.optional(),
  });
}

export type QueryRequest = z.infer<ReturnType<typeof queryRequestSchema>>;

export const ANSWER_STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;

const FIRST_INSTANT = Date.parse("0001-01-01T00:00:00Z");

export const listAnswersSchema = z.object({
  limit: z.coerce.number({ error: "limit must be an integer from 1 to 100" }).int({ error: "limit must be an integer from 1 to 100" }).min(1, { error: "limit must be an integer from 1 to 100" }).max(100, { error: "limit must be an integer from 1 to 100" }).default(20),
  // Year 0000 passes the ISO format, but PostgreSQL has no year 0 ("date/time field value out of
  // range"); SQLite took it. Refused on both, as nothing is stored that old.
  before: z.iso
    .datetime({ error: "before must be an ISO date-time" })
    .refine((value) => Date.parse(value) >= FIRST_INSTANT, { error: "before must be an ISO date-time from the year 0001 on" })
    .optional(),
  status: z.enum(ANSWER_STATUSES, { error: `status must be one of ${ANSWER_STATUSES.join(", ")}` }).optional(),
  q: z.string().trim().max(500).optional(),
});
