// The OpenAPI 3.1 description of Quarry's HTTP API, served at GET /api/openapi.json and rendered at
// /api-reference. Every route under app/api and app/v1 is described (document.test.ts fails for a route
// file without a description), except the few in UNDESCRIBED, each with its reason.
import { ERROR_SCHEMAS, errorResponses, operationObject, type Method, type RouteFamily } from "./build";
import { account, documents } from "./routes/account";
import { answers, openAi } from "./routes/answers";
import { deepResearch } from "./routes/deep-research";
import { research } from "./routes/research";
import { SHAPES } from "./shapes";

/** Route files under app/api and app/v1 that are not part of the API a client calls. */
export const UNDESCRIBED: Record<string, string> = {
  "/api/{...path}": "the catch-all: a JSON 404 for any /api path no route serves",
  "/v1/{...path}": "the catch-all: an OpenAI-shaped 404 for any /v1 path no route serves",
  "/api/auth/{...nextauth}": "Auth.js's own endpoints (sign-in, session, CSRF), used by the web app's pages",
};

export function routeFamilies(): RouteFamily[] {
  return [research(), deepResearch(), answers(), openAi(), documents(), account()];
}

const DESCRIPTION = `Quarry's HTTP API: tree research, Deep Research, quick answers (also OpenAI-compatible under /v1), your documents, share links.

Authenticate with an API token (Settings → API tokens in the web app, or \`npm run token\`) as \`Authorization: Bearer <token>\`; a signed-in browser's session works too (except under /v1). Another user's objects are 404s. Errors are JSON \`{"error", "code", "field"?}\` (under /v1, OpenAI's \`{"error": {message, type, param, code}}\`), every response carries an \`x-request-id\`, and retryable errors (429, 503) a \`Retry-After\`.

Quarry is also an MCP server: Streamable HTTP at /mcp (the same bearer token), or stdio with \`npm run mcp\` (docs/mcp.md).`;

export function openApiDocument(): Record<string, unknown> {
  const families = routeFamilies();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const family of families) {
    for (const [path, item] of Object.entries(family.paths)) {
      paths[path] ??= {};
      for (const [method, op] of Object.entries(item)) paths[path][method] = operationObject(path, method as Method, op!, family.tag);
    }
  }
  return {
    openapi: "3.1.0",
    info: { title: "Quarry API", version: "1", description: DESCRIPTION },
    tags: families.map((f) => ({ name: f.tag, description: f.description })),
    security: [{ apiToken: [] }, { session: [] }],
    paths,
    components: {
      securitySchemes: {
        apiToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "An API token: Settings → API tokens, or npm run token" },
        session: { type: "apiKey", in: "cookie", name: "authjs.session-token", description: "The web app's session (state-changing requests must be same-origin)" },
      },
      headers: {
        RequestId: { description: "The request's id (an answer run's responses: the run's request id)", schema: { type: "string" } },
        RetryAfter: { description: "Seconds to wait before trying again", schema: { type: "integer" } },
      },
      schemas: { ...ERROR_SCHEMAS, ...SHAPES },
      responses: errorResponses(),
    },
  };
}

/** Every described operation as `METHOD /path` (OpenAPI path templates). */
export function describedOperations(): string[] {
  return routeFamilies().flatMap((f) => Object.entries(f.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`)));
}
