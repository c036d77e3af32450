// Request schemas of the tree-research API, with the seed's exact messages.
import { z } from "zod";
import { getEnv } from "../env";
import { sourcesSchema } from "../knowledge/sources";
import { text } from "../validation/text";

const positiveInt = (message: string, max: number, maxMessage: string) =>
  z.number({ error: message }).int({ error: message }).positive({ error: message }).max(max, { error: maxMessage });

const promptSchema = text({ error: "Initial prompt cannot be empty" })
  .trim()
  .min(1, { error: "Initial prompt cannot be empty" })
  .max(10_000, { error: "Initial prompt must be at most 10,000 characters" });

export function questionsRequestSchema() {
  const max = getEnv().MAX_QUESTIONS;
  return z.object({
    initial_prompt: promptSchema,
    num_questions: positiveInt("Number of questions must be a positive integer", max, `Number of questions cannot exceed ${max}`),
  });
}

export function startRequestSchema() {
  const env = getEnv();
  const stringList = (field: string) =>
    z.array(text({ error: `Each of ${field} must be a string` }).max(5_000), { error: `${field} must be a list of strings` });
  // Without research_id the research is created and started in one call (no questions step):
  // initial_prompt is then required, and the questions and answers default to none.
  return z
    .object({
      research_id: text({ error: "research_id must be a string" }).trim().min(1, { error: "research_id cannot be empty" }).optional(),
      initial_prompt: promptSchema.optional(),
      followup_questions: stringList("followup_questions").optional(),
      followup_answers: stringList("followup_answers").default([]),
      depth: positiveInt("Depth must be a positive integer", env.MAX_DEPTH, `Depth cannot exceed ${env.MAX_DEPTH}`),
      breadth: positiveInt("Breadth must be a positive integer", env.MAX_BREADTH, `Breadth cannot exceed ${env.MAX_BREADTH}`),
      // Where its queries search; default the web only (issue 22).
      sources: sourcesSchema.optional(),
    })
    .superRefine((input, ctx) => {
      if (input.research_id === undefined && input.initial_prompt === undefined) {
        ctx.addIssue({ code: "custom", path: ["initial_prompt"], message: "initial_prompt is required when research_id is not given" });
      }
    });
}

/** POST /api/research/:id/follow-up: a new question on top of what the research found (all of it, or one branch's). */
export function followUpRequestSchema() {
  const env = getEnv();
  return z.object({
    question: text({ error: "question is required" })
      .trim()
      .min(1, { error: "question cannot be empty" })
      .max(10_000, { error: "question must be at most 10,000 characters" }),
    query_id: text({ error: "query_id must be a string" }).trim().min(1, { error: "query_id cannot be empty" }).optional(),
    depth: positiveInt("Depth must be a positive integer", env.MAX_DEPTH, `Depth cannot exceed ${env.MAX_DEPTH}`),
    breadth: positiveInt("Breadth must be a positive integer", env.MAX_BREADTH, `Breadth cannot exceed ${env.MAX_BREADTH}`),
  });
}

export type FollowUpRequest = z.infer<ReturnType<typeof followUpRequestSchema>>;
export type QuestionsRequest = z.infer<ReturnType<typeof questionsRequestSchema>>;
export type StartRequest = z.infer<ReturnType<typeof startRequestSchema>>;

export const listQuerySchema = z.object({
  status: z.enum(["draft", "running", "completed", "failed", "cancelled"], { error: "status must be one of draft, running, completed, failed, cancelled" }).optional(),
  q: z.string().trim().max(500).optional(),
  limit: z.coerce.number({ error: "limit must be an integer from 1 to 100" }).int().min(1).max(100).default(20),
  cursor: z.string().max(100).optional(),
});

/** GET /api/research/:id: the full view, or (`status`) the lean one for pollers. */
export const researchViewQuerySchema = z.object({ view: z.enum(["full", "status"]).default("full") });

const itemId = z.string().min(1).max(200);

/** GET /api/research/:id/items: a page of extracted items, all of them or one query's or one website's. */
export const researchItemsQuerySchema = z.object({
  query_id: itemId.optional(),
  website_id: itemId.regex(/^[^:]+:[^:]+$/, "website_id is `query_id:page_id`").optional(),
  after: itemId.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});
