// Request bodies of the Deep Research and clarification API (zod), with their inferred types.
import { z } from "zod";
import { sourcesSchema } from "../knowledge/sources";
import { text } from "../validation/text";

export const RESEARCH_MODES = ["semi-autonomous", "fully-autonomous", "steering"] as const;
export type ResearchMode = (typeof RESEARCH_MODES)[number];

const id = (name: string) => text({ error: `${name} must be a string` }).trim().min(1, `${name} must not be blank`).max(100);

export const startSchema = z.object({
  message: text({ error: "message is required" }).trim().min(1, "message must not be blank").max(20_000, "message is too long (at most 20000 characters)"),
  conversationId: id("conversationId").optional(),
  researchMode: z.enum(RESEARCH_MODES, { error: `researchMode must be one of ${RESEARCH_MODES.join(", ")}` }).optional(),
  clarificationSessionId: id("clarificationSessionId").optional(),
  // Where its literature tasks search; default the web only (issue 22).
  sources: sourcesSchema.optional(),
});
export type StartInput = z.infer<typeof startSchema>;

export const questionsSchema = z.object({
  query: text({ error: "query is required" }).trim().min(1, "query must not be blank").max(20_000),
  datasets: z.array(text().max(500), { error: "datasets must be a list of file names" }).max(20).optional(),
});

export const answersSchema = z.object({
  sessionId: id("sessionId"),
  answers: z.array(z.object({ questionIndex: z.number().int().min(0), answer: text().max(5_000) }), { error: "answers must be a list of {questionIndex, answer}" }).min(1, "answers must not be empty"),
});

export const feedbackSchema = z
  .object({
    sessionId: id("sessionId"),
    approved: z.boolean({ error: "approved must be true or false" }),
    feedback: text({ error: "feedback must be a string" }).trim().max(5_000).optional(),
  })
  .refine((b) => b.approved || Boolean(b.feedback), { message: "feedback is required when the plan is not approved", path: ["feedback"] });

/** A conversation's status as lists show it: running while its loop is active, else how its last run ended. */
export const CONVERSATION_STATUSES = ["draft", "running", "completed", "failed", "cancelled"] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

export const listQuerySchema = z.object({
  // The statuses of a research, so that History filters every kind with one set (a conversation is
  // never a draft nor cancelled: a stop ends it as completed, so those two list nothing).
  status: z.enum(CONVERSATION_STATUSES, { error: `status must be one of ${CONVERSATION_STATUSES.join(", ")}` }).optional(),
  q: z.string().trim().max(500).optional(),
  limit: z.coerce.number({ error: "limit must be an integer from 1 to 100" }).int().min(1).max(100).default(20),
  cursor: z.string().max(100).optional(),
});
