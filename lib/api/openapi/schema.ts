// JSON Schema (2020-12, what OpenAPI 3.1 uses) for the OpenAPI description: the request schemas are
// the routes' own zod schemas converted (one source of truth: what validates a request is what the
// document says); the response shapes, which no schema checks at run time, are written here with a
// few small helpers.
import { z } from "zod";

export type Schema = { [key: string]: unknown };

/** A zod schema as JSON Schema: `input` for requests (what a client sends: defaults optional, before coercion). */
export function fromZod(schema: z.ZodType, io: "input" | "output" = "input"): Schema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Schema;
  return json;
}

const described = (schema: Schema, description?: string): Schema => (description ? { ...schema, description } : schema);

export const str = (description?: string): Schema => described({ type: "string" }, description);
export const dateTime = (description?: string): Schema => described({ type: "string", format: "date-time" }, description);
export const int = (description?: string): Schema => described({ type: "integer" }, description);
export const num = (description?: string): Schema => described({ type: "number" }, description);
export const bool = (description?: string): Schema => described({ type: "boolean" }, description);
export const oneOfValues = (values: readonly string[], description?: string): Schema => described({ type: "string", enum: [...values] }, description);
export const arr = (items: Schema, description?: string): Schema => described({ type: "array", items }, description);
export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: "null" }] });
export const any = (description?: string): Schema => described({}, description);
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/**
 * An object. Every property is required unless listed in `optional` (responses carry their fields
 * even when null); other properties may be present (a response may grow).
 */
export function obj(properties: Record<string, Schema>, { optional = [], description }: { optional?: string[]; description?: string } = {}): Schema {
  const required = Object.keys(properties).filter((k) => !optional.includes(k));
  return described({ type: "object", properties, ...(required.length ? { required } : {}) }, description);
}

/** The API's error body (lib/api/errors.ts). */
export const errorSchema = obj(
  {
    error: str("What went wrong, for a person to read"),
    code: { type: "string", pattern: "^[a-z_]+:[a-z0-9_.]+$", description: "Stable `type:subject` code, e.g. `bad_request:research`, `not_found:research`, `rate_limit:research_starts`" },
    field: str("The request field the error concerns (the first invalid one)"),
    errors: arr(obj({ field: str(), message: str() }), "Every invalid field of the request"),
  },
  { optional: ["field", "errors"] },
);

/** The OpenAI-compatible API's error body (lib/api/openai-error.ts). */
export const openAiErrorSchema = obj({
  error: obj({
    message: str(),
    type: str("invalid_request_error, authentication_error, permission_error, not_found_error, rate_limit_error or server_error"),
    param: nullable(str("The request parameter at fault")),
    code: nullable(str()),
  }),
});
