// The OpenAPI 3.1 document built from short route descriptions (routes/*.ts): each operation names its
// request schemas (the zod schemas its route validates with), its success responses and the errors it
// can answer beyond the ones every route has. Parameters, error responses and security follow from
// the description, in one place, so that the document stays consistent as routes are added.
import type { z } from "zod";
import { errorSchema, fromZod, openAiErrorSchema, ref, type Schema } from "./schema";

export type Method = "get" | "post" | "put" | "patch" | "delete";

export interface Body {
  /** A zod schema (converted) or a JSON Schema. */
  schema: z.ZodType | Schema;
  /** application/json (default) or multipart/form-data (an upload). */
  type?: "application/json" | "multipart/form-data";
  /** The route takes a missing body as `{}`. */
  optional?: boolean;
  /** Other content types the route also takes (a Deep Research start: JSON or multipart). */
  alternatives?: Record<string, Schema>;
  description?: string;
}

export interface Reply {
  description: string;
  /** JSON body, when the response is JSON. */
  json?: Schema;
  /** Other bodies, by content type (text/markdown, text/event-stream, a file…). */
  content?: Record<string, Schema>;
  headers?: Record<string, { description: string; schema?: Schema }>;
}

export interface Operation {
  summary: string;
  description?: string;
  /** Open to anyone (a share link's); default: an API token or a browser session. */
  public?: boolean;
  /** Bearer API token only (no browser session): the OpenAI-compatible API. */
  tokenOnly?: boolean;
  query?: z.ZodObject;
  body?: Body;
  /** Success responses by status. */
  responses: Record<number, Reply>;
  /** Error statuses besides those every operation of its kind has (400, 401, 404, 413, 415 as they apply). */
  errors?: number[];
  /** The OpenAI-compatible API: errors in OpenAI's shape. */
  openAi?: boolean;
  /** Request headers the route reads. */
  headers?: Record<string, { description: string; schema?: Schema }>;
}

export type PathItem = Partial<Record<Method, Operation>>;

export interface RouteFamily {
  tag: string;
  description: string;
  paths: Record<string, PathItem>;
}

const ERROR_TEXT: Record<number, string> = {
  400: "Bad request: a field is missing or invalid (named in `field`)",
  401: "No valid API token (or session)",
  403: "Forbidden",
  404: "Not found: it does not exist, or it is not yours",
  405: "Method not allowed (`Allow` lists the route's methods)",
  409: "Conflict with the object's current state",
  413: "Body larger than the route's limit",
  415: "Body not JSON",
  429: "A per-user limit: wait `Retry-After` seconds",
  503: "The LLM provider or another service is unavailable; retry after `Retry-After` seconds",
};

function errorResponseName(status: number, openAi: boolean): string {
  return `${openAi ? "OpenAiError" : "Error"}${status}`;
}

/** The shared error responses, by name (components.responses). */
export function errorResponses(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const openAi of [false, true]) {
    for (const [code, description] of Object.entries(ERROR_TEXT)) {
      const status = Number(code);
      const retry = status === 429 || status === 503;
      out[errorResponseName(status, openAi)] = {
        description,
        headers: {
          "x-request-id": { $ref: "#/components/headers/RequestId" },
          ...(retry ? { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } : {}),
          ...(status === 401 ? { "WWW-Authenticate": { description: 'Bearer realm="quarry"', schema: { type: "string" } } } : {}),
        },
        content: { "application/json": { schema: ref(openAi ? "OpenAiError" : "Error") } },
      };
    }
  }
  return out;
}

export const ERROR_SCHEMAS = { Error: errorSchema, OpenAiError: openAiErrorSchema };

const asSchema = (s: z.ZodType | Schema): Schema => (typeof (s as z.ZodType).safeParse === "function" ? fromZod(s as z.ZodType) : (s as Schema));

/** Query parameters from a zod object: one parameter per property, required when the schema requires it. */
function queryParameters(query: z.ZodObject): unknown[] {
  const json = fromZod(query);
  const properties = (json.properties ?? {}) as Record<string, Schema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: "query", required: required.has(name), schema: rest, ...(description ? { description } : {}) };
  });
}

const pathParameters = (path: string) =>
  [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string", minLength: 1 } }));

function reply(r: Reply): unknown {
  const content = { ...(r.json ? { "application/json": { schema: r.json } } : {}), ...Object.fromEntries(Object.entries(r.content ?? {}).map(([type, schema]) => [type, { schema }])) };
  return {
    description: r.description,
    headers: { "x-request-id": { $ref: "#/components/headers/RequestId" }, ...(r.headers ?? {}) },
    ...(Object.keys(content).length ? { content } : {}),
  };
}

/** The operation's error statuses: its own, and those that follow from its shape. */
function errorStatuses(path: string, op: Operation): number[] {
  const statuses = new Set(op.errors ?? []);
  if (!op.public) statuses.add(401);
  if (path.includes("{")) statuses.add(404);
  if (op.query || op.body) statuses.add(400);
  if (op.body) statuses.add(413);
  if (op.body && (op.body.type ?? "application/json") === "application/json" && !op.body.alternatives) statuses.add(415);
  return [...statuses].sort((a, b) => a - b);
}

export function operationObject(path: string, method: Method, op: Operation, tag: string): Record<string, unknown> {
  const parameters = [
    ...pathParameters(path),
    ...(op.query ? queryParameters(op.query) : []),
    ...Object.entries(op.headers ?? {}).map(([name, h]) => ({ name, in: "header", required: false, description: h.description, schema: h.schema ?? { type: "string" } })),
  ];
  const body = op.body
    ? {
        required: !op.body.optional,
        ...(op.body.description ? { description: op.body.description } : {}),
        content: { [op.body.type ?? "application/json"]: { schema: asSchema(op.body.schema) }, ...Object.fromEntries(Object.entries(op.body.alternatives ?? {}).map(([t, s]) => [t, { schema: s }])) },
      }
    : undefined;
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(op.responses)) responses[status] = reply(r);
  for (const status of errorStatuses(path, op)) responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(status, Boolean(op.openAi))}` };
  return {
    operationId: operationId(method, path),
    tags: [tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.public ? { security: [] } : op.tokenOnly ? { security: [{ apiToken: [] }] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** `get /api/research/{id}/items` → `getResearchItems`. */
export function operationId(method: Method, path: string): string {
  const words = path
    .split("/")
    .filter((s) => s && !s.startsWith("{") && s !== "api")
    .flatMap((s) => s.split(/[^a-zA-Z0-9]+/))
    .filter(Boolean);
  return [method, ...words].map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join("") + (/\}$/.test(path) ? "ById" : "");
}
