// Documents (collections, uploads, search), the account (who you are, password, API tokens), shared
// reports (no sign-in), the configuration status and this description itself.
import { changePasswordSchema, createTokenSchema } from "../../../auth/schema";
import { collectionNameSchema, documentListQuerySchema, searchQuerySchema } from "../../../knowledge/schema";
import { exportQuery } from "../../export-response";
import type { RouteFamily } from "../build";
import { arr, int, obj, ref, str } from "../schema";
import { exportReplies } from "./research";

export const documents = (): RouteFamily => ({
  tag: "Documents",
  description: "Your document collections (PDF, DOCX, Markdown, HTML, text) and the shared folder: uploaded, parsed into passages with their page or section, indexed and searched; runs can search them beside the web.",
  paths: {
    "/api/collections": {
      get: { summary: "Your collections and the shared one", responses: { 200: { description: "The collections", json: obj({ collections: arr(ref("Collection")) }) } } },
      post: { summary: "Create a collection", body: { schema: collectionNameSchema }, responses: { 201: { description: "The collection", json: obj({ collection: ref("Collection") }) } } },
    },
    "/api/collections/{id}": {
      get: { summary: "A collection with its documents", responses: { 200: { description: "The collection", json: obj({ collection: { allOf: [ref("Collection"), obj({ documents: arr(ref("Document")) })] } }) } } },
      patch: { summary: "Rename a collection", body: { schema: collectionNameSchema }, responses: { 200: { description: "The collection", json: obj({ collection: ref("Collection") }) } }, errors: [403] },
      delete: { summary: "Delete a collection and its documents", responses: { 204: { description: "Deleted" } }, errors: [403] },
    },
    "/api/collections/{id}/documents": {
      get: {
        summary: "One page of the collection's documents, sorted and filtered by the server",
        query: documentListQuerySchema,
        responses: {
          200: {
            description: "The page, the total matching the filters, and the collection's documents counted by status and by type",
            json: obj({
              documents: arr(ref("Document")),
              total: int(),
              page: int(),
              limit: int(),
              pages: int(),
              sort: str(),
              order: str(),
              counts: obj({ status: { type: "object", additionalProperties: int() }, type: { type: "object", additionalProperties: int() } }),
            }),
          },
        },
      },
      post: {
        summary: "Upload one document; parsed and indexed before the reply",
        body: { type: "multipart/form-data", schema: obj({ file: { type: "string", contentMediaType: "application/octet-stream", description: "The document" } }) },
        responses: { 201: { description: "The document", json: obj({ document: ref("Document") }) } },
        errors: [403, 415, 429],
      },
    },
    "/api/collections/{id}/documents/{documentId}": {
      get: { summary: "The document and its passages", responses: { 200: { description: "The document", json: obj({ document: ref("Document") }) } } },
      delete: { summary: "Remove the document from the collection and the index", responses: { 204: { description: "Removed" } }, errors: [403] },
    },
    "/api/collections/{id}/documents/{documentId}/file": {
      get: { summary: "The original file, shown inline", responses: { 200: { description: "The file (PDF or Word as such, other formats as plain text)", content: { "application/pdf": { type: "string" }, "text/plain": { type: "string" } } } } },
    },
    "/api/collections/{id}/reindex": {
      post: { summary: "Parse and index every document again", responses: { 200: { description: "The documents", json: obj({ documents: arr(ref("Document")) }) } }, errors: [403, 429] },
    },
    "/api/collections/{id}/search": {
      get: { summary: "The collection's passages ranked for q", query: searchQuerySchema, responses: { 200: { description: "The passages, best first", json: obj({ results: arr(ref("Passage")) }) } }, errors: [429] },
    },
  },
});

export const account = (): RouteFamily => ({
  tag: "Account and sharing",
  description: "Who you are, your password and API tokens; read-only share links, which need no sign-in.",
  paths: {
    "/api/account": {
      get: { summary: "Who you are", responses: { 200: { description: "Your account", json: obj({ email: str() }) } } },
    },
    "/api/account/password": {
      post: {
        summary: "Change the password (browser session only); every session ends",
        body: { schema: changePasswordSchema },
        responses: { 204: { description: "Changed: sign in again" } },
        errors: [403, 429],
      },
    },
    "/api/tokens": {
      get: { summary: "Your API tokens", responses: { 200: { description: "The tokens (never their secrets)", json: obj({ tokens: arr(ref("ApiToken")) }) } } },
      post: {
        summary: "Create an API token (browser session only); the token is returned once",
        body: { schema: createTokenSchema },
        responses: { 201: { description: "The token: send it as Authorization: Bearer <token>", json: obj({ token: str(), apiToken: ref("ApiToken") }) } },
        errors: [403],
      },
    },
    "/api/tokens/{id}": {
      delete: { summary: "Revoke one of your API tokens", responses: { 200: { description: "The revoked token", json: obj({ apiToken: ref("ApiToken") }) } } },
    },
    "/api/share/{token}": {
      get: {
        summary: "A shared research ({research}) or Deep Research conversation ({conversation}), read-only",
        public: true,
        responses: { 200: { description: "What the link shares", json: { type: "object", properties: { research: obj({}), conversation: obj({}) } } } },
      },
    },
    "/api/share/{token}/export": {
      get: { summary: "A shared report or write-up as a file", public: true, query: exportQuery, responses: exportReplies, errors: [429] },
    },
    "/api/config/status": {
      get: { summary: "Configuration problems to fix (variable names and what to do; no values)", public: true, responses: { 200: { description: "The problems", json: obj({ problems: arr(ref("ConfigProblem")) }) } } },
    },
    "/api/openapi.json": {
      get: { summary: "This description (OpenAPI 3.1)", public: true, responses: { 200: { description: "The document", json: obj({ openapi: str() }) } } },
    },
  },
});
