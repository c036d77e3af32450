// Quick answers: the answer agent's own API (/api/v1) and its OpenAI-compatible faces (/v1: chat
// completions, the Responses API, models), the latter with OpenAI's error shape.
import { chatRequestSchema, MODELS } from "../../../answer/openai";
import { responsesRequestSchema } from "../../../answer/responses";
import { listAnswersSchema, queryRequestSchema } from "../../../answer/schema";
import type { RouteFamily } from "../build";
import { arr, int, nullable, obj, oneOfValues, ref, str } from "../schema";

const model = obj({ id: oneOfValues(MODELS), object: oneOfValues(["model"]), created: int(), owned_by: str() });
const retryHeaders = {
  "Idempotency-Key": { description: "A retry with the same key joins the run it repeats instead of starting another" },
};

export const answers = (): RouteFamily => ({
  tag: "Quick answers",
  description: "The answer agent: searches, reads and reflects until it has a definitive answer whose every reference is a verified quote, within a token budget.",
  paths: {
    "/api/v1/query": {
      post: {
        summary: "Ask a question; reply at once with where to follow it",
        body: { schema: queryRequestSchema() },
        responses: {
          202: {
            description: "The run started (`Location`: the answer)",
            json: obj({ requestId: str(), streamUrl: str("GET it for the run's events") }),
            headers: { Location: { description: "GET /api/v1/answers/{requestId}" } },
          },
        },
        errors: [409, 429, 503],
      },
    },
    "/api/v1/stream/{requestId}": {
      get: {
        summary: "The run's events as server-sent events: progress per step, then the answer or the error",
        headers: { "Last-Event-ID": { description: "Replay what followed this event's sequence number (also `?lastEventId=`)" } },
        responses: {
          200: { description: "`id:` is the event's sequence number; `data:` a JSON event (progress, paused, answer, error)", content: { "text/event-stream": { type: "string" } } },
          204: { description: "The run ended and this client received its end: nothing more will come" },
        },
      },
    },
    "/api/v1/answers": {
      get: {
        summary: "Your answer runs, newest first",
        query: listAnswersSchema,
        responses: { 200: { description: "A page of answers (`next`: pass as `before`)", json: obj({ answers: arr(ref("Answer")), next: nullable(str()) }) } },
      },
    },
    "/api/v1/answers/{requestId}": {
      get: { summary: "One answer run with its steps", responses: { 200: { description: "The answer", json: ref("Answer") } } },
    },
    "/api/v1/answers/{requestId}/cancel": {
      post: { summary: "Stop a running answer", responses: { 200: { description: "Cancelled", json: obj({ requestId: str(), status: oneOfValues(["cancelled"]) }) } }, errors: [409] },
    },
  },
});

export const openAi = (): RouteFamily => ({
  tag: "OpenAI-compatible",
  description: "The answer agent (model quarry-answer) and one plain call (quarry-chat) for OpenAI clients: Bearer token, OpenAI's request and response shapes, errors as {error: {message, type, param, code}}.",
  paths: {
    "/v1/chat/completions": {
      post: {
        summary: "Chat completions (stream and non-stream)",
        tokenOnly: true,
        openAi: true,
        headers: retryHeaders,
        body: { schema: chatRequestSchema },
        responses: {
          200: {
            description: "A chat.completion (its message's annotations: url_citation with the quote), or with `stream` its chunks as server-sent events ending with `data: [DONE]`",
            json: obj({ id: str(), object: oneOfValues(["chat.completion"]), created: int(), model: str(), choices: arr(obj({ index: int(), message: obj({ role: str(), content: nullable(str()) }), finish_reason: nullable(str()) })) }),
            content: { "text/event-stream": { type: "string" } },
          },
        },
        errors: [409, 429, 503],
      },
    },
    "/v1/responses": {
      post: {
        summary: "The Responses API (stream and non-stream)",
        tokenOnly: true,
        openAi: true,
        headers: retryHeaders,
        body: { schema: responsesRequestSchema },
        responses: {
          200: {
            description: "A response (a reasoning item, then the answer's output_text with url_citation annotations), or with `stream` its events as server-sent events",
            json: obj({ id: str(), object: oneOfValues(["response"]), status: str(), model: str(), output: arr(obj({})) }),
            content: { "text/event-stream": { type: "string" } },
          },
        },
        errors: [409, 429, 503],
      },
    },
    "/v1/models": {
      get: { summary: "The models served", tokenOnly: true, openAi: true, responses: { 200: { description: "The list", json: obj({ object: oneOfValues(["list"]), data: arr(model) }) } } },
    },
    "/v1/models/{id}": {
      get: { summary: "One model (404 for any other id)", tokenOnly: true, openAi: true, responses: { 200: { description: "The model", json: model } } },
    },
  },
});
