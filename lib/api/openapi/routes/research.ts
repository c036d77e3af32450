// Tree research: drafts with follow-up questions, starts, the research's views, its report and
// exports, cancel, resume, rerun, follow-ups, share links; and the engine-neutral runs.
import { createShareSchema } from "../../../auth/schema";
import { followUpRequestSchema, listQuerySchema, questionsRequestSchema, researchItemsQuerySchema, researchViewQuerySchema, startRequestSchema } from "../../../research/schema";
import { rerunRequestSchema } from "../../../research/rerun";
import { exportQuery } from "../../export-response";
import type { Reply, RouteFamily } from "../build";
import { arr, obj, oneOfValues, ref, str } from "../schema";

const accepted: Record<number, Reply> = {
  202: { description: "The research is running: its status and links (`Location`: the research)", json: ref("ResearchAccepted"), headers: { Location: { description: "The research's URL" } } },
};

/** A stream of the AI SDK's UI message protocol (server-sent events of JSON chunks). */
export const uiMessageStream = (what: string): Reply => ({
  description: `${what} as an AI SDK UI message stream: server-sent events, each \`data:\` a JSON chunk; a snapshot part first, then live parts (each with its \`seq\` and \`at\`), until the end`,
  content: { "text/event-stream": { type: "string" } },
});

/** The export formats of a report or write-up (GET …/export?format=). */
export const exportReplies: Record<number, Reply> = {
  200: {
    description: "The file, as an attachment: Markdown, PDF, Word, or (tex) a zip of the LaTeX paper with its bibliography",
    content: {
      "text/markdown": { type: "string" },
      "application/pdf": { type: "string", contentMediaType: "application/pdf" },
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document": { type: "string", contentMediaType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
      "application/zip": { type: "string", contentMediaType: "application/zip" },
    },
    headers: { "Content-Disposition": { description: 'attachment; filename="quarry-<question words>-<date>.<ext>"' } },
  },
};

const shareLinks = (subject: string): RouteFamily["paths"] => ({
  [`/api/${subject}/{id}/shares`]: {
    get: { summary: "Its share links", responses: { 200: { description: "The share links", json: obj({ shareLinks: arr(ref("ShareLink")) }) } } },
    post: {
      summary: "Create a read-only share link (its token is returned once)",
      body: { schema: createShareSchema, optional: true, description: "No body: a link that does not expire" },
      responses: { 201: { description: "The link: open `path` in a browser, or GET /api/share/{token}", json: obj({ token: str(), path: str(), shareLink: ref("ShareLink") }) } },
    },
  },
  [`/api/${subject}/{id}/shares/{shareId}`]: {
    delete: { summary: "Revoke a share link", responses: { 200: { description: "The revoked link", json: obj({ shareLink: ref("ShareLink") }) } } },
  },
});

export const research = (): RouteFamily => ({
  tag: "Tree research",
  description: "A research explores a tree of search queries (breadth × depth), reads and analyses the pages, and writes a report with numbered citations, then verifies them.",
  paths: {
    "/api/research": {
      get: {
        summary: "Your researches, newest first",
        query: listQuerySchema,
        responses: { 200: { description: "A page of researches", json: obj({ researches: arr(ref("ResearchSummary")), next_cursor: { anyOf: [str("Pass as `cursor` for the next page"), { type: "null" }] } }) } },
      },
    },
    "/api/research/questions": {
      post: {
        summary: "Create a draft with tailored follow-up questions",
        body: { schema: questionsRequestSchema() },
        responses: { 200: { description: "The draft and its questions", json: obj({ research_id: str(), followup_questions: arr(str()) }) } },
        errors: [429, 503],
      },
    },
    "/api/research/start": {
      post: {
        summary: "Start a draft (or, without research_id, create and start a research)",
        body: { schema: startRequestSchema() },
        responses: accepted,
        errors: [409, 429, 503],
      },
    },
    "/api/research/{id}": {
      get: {
        summary: "The research (`view=status`: the lean status view)",
        query: researchViewQuerySchema,
        responses: { 200: { description: "The full view, or the status view", json: { anyOf: [ref("Research"), ref("ResearchStatus")] } } },
      },
      delete: { summary: "Delete the research (its run is cancelled first)", responses: { 204: { description: "Deleted" } }, errors: [409, 503] },
    },
    "/api/research/{id}/cancel": {
      post: { summary: "Cancel a running research", responses: { 200: { description: "Cancelled", json: obj({ research_id: str(), status: oneOfValues(["cancelled"]) }) } }, errors: [409] },
    },
    "/api/research/{id}/resume": {
      post: { summary: "Resume a failed or cancelled research, or retry a paused one's LLM provider now", responses: accepted, errors: [409, 429, 503] },
    },
    "/api/research/{id}/write-report": {
      post: { summary: "Write the report of a failed or cancelled research from what it found", responses: accepted, errors: [409, 429, 503] },
    },
    "/api/research/{id}/rerun": {
      post: {
        summary: "A new research with the same prompt, questions and answers (at the same or the given depth × breadth)",
        body: { schema: rerunRequestSchema(), optional: true },
        responses: accepted,
        errors: [409, 429, 503],
      },
    },
    "/api/research/{id}/follow-up": {
      post: {
        summary: "A new research on a follow-up question, building on what this one found (or on one branch: query_id)",
        body: { schema: followUpRequestSchema() },
        responses: accepted,
        errors: [409, 429, 503],
      },
    },
    "/api/research/{id}/items": {
      get: { summary: "The extracted items, a page at a time", query: researchItemsQuerySchema, responses: { 200: { description: "A page of items", json: ref("ResearchItems") } } },
    },
    "/api/research/{id}/report": {
      get: { summary: "The report in Markdown (numbered citations, ## Sources)", responses: { 200: { description: "The report", content: { "text/markdown": { type: "string" } } } } },
    },
    "/api/research/{id}/error-output": {
      get: { summary: "error-output.md of a failed research", responses: { 200: { description: "Every analysed page, every failure, any partial report", content: { "text/markdown": { type: "string" } } } } },
    },
    "/api/research/{id}/export": {
      get: { summary: "The report as a file: md, pdf, docx, or tex (the LaTeX paper, zipped)", query: exportQuery, responses: exportReplies },
    },
    "/api/research/{id}/verification": {
      get: { summary: "The report's citation verification", responses: { 200: { description: "Verdicts, support rate and repair", json: ref("Verification") } } },
    },
    "/api/research/{id}/stream": {
      get: { summary: "Live progress: snapshot, then query, website, report and run parts", responses: { 200: uiMessageStream("The research") } },
    },
    ...shareLinks("research"),
    "/api/runs/{id}": {
      get: { summary: "One run of any engine", responses: { 200: { description: "The run", json: ref("Run") } } },
    },
    "/api/runs/{id}/stream": {
      get: { summary: "Any engine's run: its snapshot, then every event in the run envelope", responses: { 200: uiMessageStream("The run") } },
    },
  },
});

export { shareLinks };
