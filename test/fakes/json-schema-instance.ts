// A minimal valid instance of a JSON Schema, for structured-output calls from agents the fake does
// not know: objects with their required properties, arrays with minItems, the first enum value.

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  format?: string;
  default?: unknown;
};

export function schemaInstance(schema: JsonSchema, root: JsonSchema = schema, depth = 0): unknown {
  if (depth > 20) return null;
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/(\$defs|definitions)\//, "");
    const target = root.$defs?.[name] ?? root.definitions?.[name];
    return target ? schemaInstance(target, root, depth + 1) : null;
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (variant) return schemaInstance(variant, root, depth + 1);
  if (schema.allOf?.length) {
    return Object.assign({}, ...schema.allOf.map((part) => schemaInstance(part, root, depth + 1) as object));
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const type = types.find((t) => t !== "null") ?? types[0] ?? (schema.properties ? "object" : "string");
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const required = schema.required ?? Object.keys(schema.properties ?? {});
      for (const key of required) out[key] = schemaInstance(schema.properties?.[key] ?? {}, root, depth + 1);
      return out;
    }
    case "array": {
      const { items: item = {}, minItems = 0 } = schema;
      const items: JsonSchema[] = Array.isArray(item) ? item : Array.from({ length: minItems }, () => item);
      return items.map((item) => schemaInstance(item, root, depth + 1));
    }
    case "integer":
    case "number":
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
    case "boolean":
      return false;
    case "null":
      return null;
    default: {
      if (schema.format === "uri" || schema.format === "url") return "https://example.com/";
      if (schema.format === "date-time") return "2025-01-01T00:00:00Z";
      if (schema.format === "date") return "2025-01-01";
      return "example".padEnd(schema.minLength ?? 0, "x");
    }
  }
}
