// Deep Research: clarification before a start, starts (JSON or multipart with datasets), a start's
// status, the conversations, their write-up's export and verification, stop, stream, share links.
import { answersSchema, feedbackSchema, listQuerySchema, questionsSchema, startSchema } from "../../../deep-research/schema";
import { exportQuery } from "../../export-response";
import type { RouteFamily } from "../build";
import { arr, bool, fromZod, obj, oneOfValues, ref, str } from "../schema";
import { exportReplies, shareLinks, uiMessageStream } from "./research";

/** The multipart form of a start: the JSON fields as form fields (sources as JSON text) and the datasets as `files`. */
function multipartStart() {
  const json = fromZod(startSchema) as { properties: Record<string, unknown>; required?: string[] };
  return {
    ...json,
    properties: {
      ...json.properties,
      sources: str('`sources` as JSON text, e.g. {"web":true,"collections":[]}'),
      files: arr({ type: "string", contentMediaType: "application/octet-stream" }, "Datasets: CSV, TSV, JSON or NDJSON, Parquet, XLSX"),
    },
  };
}

export const deepResearch = (): RouteFamily => ({
  tag: "Deep Research",
  description: "An iterative research conversation: plans tasks, runs literature trees and dataset analyses, forms hypotheses and records discoveries with evidence, and replies with a cited write-up.",
  paths: {
    "/api/deep-research/start": {
      post: {
        summary: "Start (or continue) a conversation; JSON, or multipart with datasets",
        body: { schema: startSchema, alternatives: { "multipart/form-data": multipartStart() } },
        responses: {
          200: { description: "Processing (or, with `deduplicated`, the conversation's running start)", json: ref("DeepResearchStarted") },
          202: { description: "Queue mode: queued for a worker", json: ref("DeepResearchStarted") },
        },
        errors: [429, 503],
      },
    },
    "/api/deep-research/status/{messageId}": {
      get: { summary: "A start's progress, then its result or error", responses: { 200: { description: "The start's status", json: ref("DeepResearchStatus") } } },
    },
    "/api/deep-research/conversations": {
      get: {
        summary: "Your conversations, newest first",
        query: listQuerySchema,
        responses: { 200: { description: "A page of conversations", json: obj({ conversations: arr(ref("ConversationSummary")), nextCursor: { anyOf: [str(), { type: "null" }] } }) } },
      },
    },
    "/api/deep-research/conversations/{id}": {
      get: { summary: "The world state, messages, plan, discoveries and run guard", responses: { 200: { description: "The conversation", json: ref("Conversation") } } },
    },
    "/api/deep-research/conversations/{id}/stop": {
      post: { summary: "End the loop now (the phase at work is aborted; what earlier phases saved stays)", responses: { 202: { description: "Stopping", json: obj({ conversationId: str(), messageId: str(), stopping: bool() }) } }, errors: [409] },
    },
    "/api/deep-research/conversations/{id}/stream": {
      get: { summary: "Live updates: snapshot, then state, message, task, phase, discovery and run parts", responses: { 200: uiMessageStream("The conversation") } },
    },
    "/api/deep-research/conversations/{id}/verification": {
      get: { summary: "The write-up's citation verification", responses: { 200: { description: "Verdicts and support rate of the last write-up", json: { allOf: [ref("Verification"), obj({ message_id: str() })] } } } },
    },
    "/api/deep-research/conversations/{id}/export": {
      get: { summary: "The write-up (last reply and discoveries) as a file: md, pdf, docx or tex", query: exportQuery, responses: exportReplies },
    },
    ...shareLinks("deep-research/conversations"),
    "/api/clarification/generate-questions": {
      post: {
        summary: "Questions to ask before a conversation",
        body: { schema: questionsSchema },
        responses: { 200: { description: "The session and its questions", json: obj({ ok: bool(), sessionId: str(), questions: arr(obj({ category: str(), question: str(), priority: str() })), reasoning: str() }) } },
        errors: [429, 503],
      },
    },
    "/api/clarification/submit-answers": {
      post: {
        summary: "The answers; a plan is written from them",
        body: { schema: answersSchema },
        responses: { 200: { description: "The plan", json: obj({ ok: bool(), sessionId: str(), plan: obj({ objective: str(), initialTasks: arr(obj({})) }) }) } },
        errors: [429, 503],
      },
    },
    "/api/clarification/plan-feedback": {
      post: {
        summary: "Approve the plan, or have it rewritten from feedback",
        body: { schema: feedbackSchema },
        responses: { 200: { description: "The plan and the session's status", json: obj({ ok: bool(), sessionId: str(), status: oneOfValues(["plan_approved", "plan_generated"]), plan: obj({}) }) } },
        errors: [429, 503],
      },
    },
    "/api/clarification/{sessionId}": {
      get: { summary: "A clarification session: questions, answers, plan, feedback history, usage", responses: { 200: { description: "The session", json: ref("ClarificationSession") } } },
    },
  },
});
